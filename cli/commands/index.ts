import type { Command } from 'commander';
import type { CliContext } from '../cliRuntime';
import { register as registerAccounts } from './accounts';
import { register as registerAlerts } from './alerts';
import { register as registerChannels } from './channels';
import { register as registerCollect } from './collect';
import { register as registerDeliveries } from './deliveries';
import { register as registerDelegates } from './delegates';
import { register as registerDesk } from './desk';
import { register as registerInit } from './init';
import { register as registerStatus } from './status';
import { register as registerLink } from './link';
import { register as registerProtection } from './protection';
import { register as registerRecipients } from './recipients';
import { register as registerReport } from './report';
import { register as registerServe } from './serve';
import { register as registerSim } from './sim';
import { register as registerTestEmail } from './testEmail';

/**
 * Every command lives in its own file under `commands/` and exports `register(program, context)`.
 * Add new ones to this list.
 */
export function registerCommands(program: Command, context: CliContext): void {
  registerAccounts(program, context);
  registerChannels(program, context);
  registerCollect(program, context);
  registerStatus(program, context);
  registerAlerts(program, context);
  registerDelegates(program, context);
  registerLink(program, context);
  registerReport(program, context);
  registerDeliveries(program, context);
  registerRecipients(program, context);
  registerDesk(program, context);
  registerProtection(program, context);
  registerServe(program, context);
  registerSim(program);
  registerInit(program, context);
  registerTestEmail(program, context);
}
