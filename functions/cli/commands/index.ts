import type { Command } from 'commander';

/**
 * Every command lives in its own file under `commands/` and exports `register(program)`.
 * Add new ones to this list.
 */
export function registerCommands(_program: Command): void {}
