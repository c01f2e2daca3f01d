#!/usr/bin/env node
// Runs the TypeScript CLI from its freshness-checked bundle (bundledEntry.js): no build step is needed to use it locally.
import { importEntry } from './bundledEntry.js';

const { runCli } = /** @type {{ runCli(argv: readonly string[]): Promise<number> }} */ (await importEntry('cli/main.ts'));
process.exitCode = await runCli(process.argv.slice(2));
