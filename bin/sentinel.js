#!/usr/bin/env node
// Runs the TypeScript CLI directly through tsx: no build step is needed to use it locally.
import { register } from 'tsx/esm/api';

register();
await import('../functions/cli/main.ts');
