import type { Command } from 'commander';
import { addressSchema } from '../../functions/domain/address';
import { sesSenderFrom } from '../../functions/runtime/factories';
import { dueReports, type AccountReportResult, type DueReportsDeps } from '../../functions/services/report/dueReports';
import { sendDailyReport } from '../../functions/services/report/sendDailyReport';
import { memoryCounters } from '../../functions/shared/observability';
import { localEmailRenderer, localMailGovernor } from '../../local/localSystem';
import type { CliContext, CliRuntime } from '../cliRuntime';
import { formatTable, plural, printJson, UsageError, addressMessage } from '../output';

/** The report service's ports from the CLI runtime: its repositories, links and clock, the chain, SES from the settings paced at `MAIL_RATE`'s report share. */
export async function reportDepsFrom(rt: CliRuntime): Promise<DueReportsDeps> {
  const counters = memoryCounters();
  const governor = localMailGovernor(rt.settings, counters);
  return {
    repos: rt.repos,
    // Created when a report is built: a run with nothing due needs no chain settings.
    chain: { getPortfolio: (query, options) => rt.chain().getPortfolio(query, options) },
    sender: governor.sender(sesSenderFrom(rt.settings), 'report'),
    renderer: localEmailRenderer(rt.settings),
    links: await rt.links(),
    mailFrom: rt.settings.MAIL_FROM,
    log: rt.log,
    counters,
  };
}

const UNDELIVERED = new Set(['failed', 'retry', 'error']);

/** `sentinel report [--account <address>] [--force] [--json]`: sends the daily reports due now (or now regardless). */
export function register(program: Command, context: CliContext): void {
  program
    .command('report')
    .description('send the daily reports that are due now; with --force, send now regardless (an extra report, the schedule is unchanged)')
    .option('--account <address>', 'only this account')
    .option('--force', 'send even if the report is not due')
    .option('--json', 'print the outcomes as JSON')
    .action(async (options: { account?: string; force?: boolean; json?: boolean }) => {
      let address: string | undefined;
      if (options.account !== undefined) {
        const parsed = addressSchema.safeParse(options.account);
        if (!parsed.success) throw new UsageError(`--account "${options.account}" ${addressMessage(parsed.error)}`);
        address = parsed.data;
      }
      const rt = await context.runtime();
      const deps = await reportDepsFrom(rt);
      const now = rt.now();
      const force = options.force ?? false;
      let results: AccountReportResult[];
      if (address === undefined) {
        results = await dueReports(deps, now, { force });
      } else {
        const account = await rt.repos.accounts.get(address);
        if (!account) throw new Error(`${address} is not tracked`);
        results = [{ address: account.address, outcome: await sendDailyReport(deps, account, { now, force }) }];
      }

      if (options.json) printJson(context.io, results);
      else if (results.length === 0) context.io.out('no report was due\n');
      else {
        const labels = new Map((await rt.repos.accounts.getMany(results.map((r) => r.address))).map((a) => [a.address as string, a.label]));
        context.io.out(formatTable(['LABEL', 'ACCOUNT', 'OUTCOME', 'RECIPIENTS', 'NOTE'], results.map((r) => [labels.get(r.address) ?? '', ...row(r)])));
      }

      const undelivered = results.filter((r) => UNDELIVERED.has(r.outcome.kind));
      if (undelivered.length > 0) {
        const first = undelivered[0]?.outcome;
        const reason = first && 'reason' in first ? `: ${first.reason}` : '';
        throw new Error(`${undelivered.length} of ${plural(results.length, 'report')} not delivered${reason}`);
      }
    });
}

function row({ address, outcome }: AccountReportResult): string[] {
  switch (outcome.kind) {
    case 'sent':
      return [address, outcome.forced ? 'sent (extra)' : 'sent', String(outcome.messages), `covers ${outcome.coveredDate}${outcome.failed > 0 ? `; ${outcome.failed} refused` : ''}`];
    case 'duplicate':
      return [address, 'already sent', '0', `report of ${outcome.reportDate}`];
    case 'not-due':
      return [address, 'not due', '0', `next at ${new Date(outcome.nextAt).toISOString()}`];
    case 'skipped':
      return [address, 'skipped', '0', outcome.reason];
    case 'failed':
    case 'retry':
    case 'error':
      return [address, outcome.kind, '0', outcome.reason];
  }
}
