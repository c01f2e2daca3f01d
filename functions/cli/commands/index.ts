import type { Command } from 'commander';
import { register as registerSim } from './sim';

/**
 * Every command lives in its own file under `commands/` and exports `register(program)`.
 * Add new ones to this list.
 */
export function registerCommands(program: Command): void {
  registerSim(program);
}
