#!/usr/bin/env node
// Runs the TypeScript CLI directly through tsx: no build step is needed to use it locally.
import { register } from 'tsx/esm/api';

// The AWS SDK warns about Node 20 on every run; the CLI supports Node 20, the Lambdas run Node 22.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
register();
const { runCli } = await import('../cli/main.ts');
process.exitCode = await runCli(process.argv.slice(2));
