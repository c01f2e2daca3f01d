import type { Command } from 'commander';
import { addressSchema } from '../../functions/domain/address';
import type { CollectOutcome } from '../../functions/services/collect/collectAccount';
import type { DispatchSelection } from '../../functions/services/collect/dispatchDue';
import { memoryCounters } from '../../functions/shared/observability';
import { createLocalSystem } from '../../local/localSystem';
import type { CliContext } from '../cliRuntime';
import { formatTable, printJson, UsageError } from '../output';

/** `sentinel collect`: one dispatch-and-collect cycle now, alerts included. */
export function register(program: Command, context: CliContext): void {
  program
    .command('collect')
    .description('run one dispatch-and-collect cycle now (the accounts that are due, or --all, or one --account), sending the alerts it raises')
    .option('--account <address>', 'collect only this account, due or not')
    .option('--all', 'collect every tracked account, due or not')
    .option('--json', 'print the outcomes as JSON')
    .action(async (options: { account?: string; all?: boolean; json?: boolean }) => {
      if (options.account !== undefined && options.all) throw new UsageError('--account and --all exclude each other');
      const selection = selectionOf(options);
      const rt = await context.runtime();
      const system = await createLocalSystem({
        settings: rt.settings,
        repos: rt.repos,
        log: rt.log,
        counters: memoryCounters(),
        now: () => rt.now(),
        visibilityTimeoutMs: 1_000,
      });
      if (selection.kind === 'account' && !(await rt.repos.accounts.get(selection.address))) {
        throw new Error(`${selection.address} is not tracked`);
      }
      const progress = context.io.interactive
        ? (done: number, total: number) => context.io.err(`\rcollected ${done}/${total}`)
        : undefined;
      const { outcomes } = await system.pipeline.runCycle(selection, progress);
      if (progress && outcomes.length > 0) context.io.err('\n');
      if (options.json) return printJson(context.io, outcomes);
      if (outcomes.length === 0) return context.io.out('no account was due\n');
      context.io.out(formatTable(['ACCOUNT', 'NEW POINTS', 'STATUS', 'NOTE'], outcomes.map(row)));
    });
}

function selectionOf(options: { account?: string; all?: boolean }): DispatchSelection {
  if (options.all) return { kind: 'all' };
  if (options.account === undefined) return { kind: 'due' };
  const address = addressSchema.safeParse(options.account);
  if (!address.success) throw new UsageError(`--account "${options.account}" is not a 20-byte hex address`);
  return { kind: 'account', address: address.data };
}

function row(outcome: CollectOutcome): string[] {
  switch (outcome.kind) {
    case 'collected':
      return [outcome.address, String(outcome.newPoints), outcome.status, outcome.events > 0 ? `${outcome.events} alert(s) sent` : ''];
    case 'chain-failed':
      return [outcome.address, '0', outcome.status, outcome.reason];
    case 'delegates-checked':
      return [outcome.address, '0', '', outcome.events > 0 ? `delegates checked, ${outcome.events} alert(s) sent` : 'delegates checked'];
    case 'already-collected':
      return [outcome.address, '0', '', 'already collected for this time'];
    case 'not-tracked':
      return [outcome.address, '0', '', 'no longer tracked'];
  }
}
