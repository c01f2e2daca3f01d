import type { Command } from 'commander';
import type { CliContext } from '../cliRuntime';

/** What each command file exports. */
interface CommandFile {
  register(program: Command, context: CliContext): void;
}

/**
 * Every top-level command lives in its own file under `commands/` and exports
 * `register(program, context)`; add new ones here, in the order `--help` lists them. A file is
 * imported only when its command runs: `collect`, `report`, `serve` and `test-email` load the
 * local system's pipelines (about 2,400 modules in all), which `accounts list` has no use for.
 */
const COMMAND_FILES: Readonly<Record<string, () => Promise<CommandFile>>> = {
  accounts: () => import('./accounts'),
  channels: () => import('./channels'),
  collect: () => import('./collect'),
  status: () => import('./status'),
  alerts: () => import('./alerts'),
  delegates: () => import('./delegates'),
  link: () => import('./link'),
  report: () => import('./report'),
  deliveries: () => import('./deliveries'),
  recipients: () => import('./recipients'),
  desk: () => import('./desk'),
  protection: () => import('./protection'),
  serve: () => import('./serve'),
  sim: () => import('./sim'),
  init: () => import('./init'),
  'test-email': () => import('./testEmail'),
};

/**
 * Registers the command `argv` names, or every command when it names none of them (`--help`,
 * `help`, a mistyped name: the help and commander's "did you mean" suggestion need them all).
 */
export async function registerCommands(program: Command, context: CliContext, argv: readonly string[]): Promise<void> {
  const named = argv.find((arg) => !arg.startsWith('-'));
  const chosen = named !== undefined && Object.hasOwn(COMMAND_FILES, named) ? [named] : Object.keys(COMMAND_FILES);
  const files = await Promise.all(chosen.map((name) => COMMAND_FILES[name]?.()));
  for (const file of files) file?.register(program, context);
}
