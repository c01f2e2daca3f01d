import type { Command } from 'commander';
import { parseAddressArgument } from '../readAddress';
import * as z from 'zod';
import { addDays } from '../../functions/domain/localTime';
import type { ReportPeriod } from '../../functions/domain/recipientSchedule';
import { sesSenderFrom } from '../../functions/runtime/factories';
import { digestSenderFor } from '../../functions/runtime/digestSenderFor';
import { sendSelectedReports, type ReportRunResult } from '../../functions/services/report/send/sendSelectedReports';
import { sendToRecipient } from '../../functions/services/report/send/sendToRecipient';
import type { TrackedAccount } from '../../functions/domain/account';
import { missedToday, retryMissedReports, type MissedReportsDeps, type MissedRetryResult } from '../../functions/services/report/schedule/retryMissedReports';
import { missedReportLine } from '../../functions/services/report/schedule/operatorNotice';
import { memoryCounters } from '../../functions/shared/observability';
import { localEmailRenderer, localMailGovernor } from '../../local/localSystem';
import { dispatchAndDrainReports } from '../../local/reportPipeline';
import { createNotifyHandler } from '../../functions/handlers/notify';
import { createLocalNotifyQueue } from '../../local/localNotifyQueue';
import { drainInRounds } from '../../local/queue/drainInRounds';
import { cliChannelQueues } from '../cliChannelQueues';
import type { CliContext, CliRuntime } from '../cliRuntime';
import { formatTable, plural, printJson, UsageError } from '../output';

/**
 * The report service's ports from the CLI runtime: its repositories, links and clock, the chain, SES
 * from the settings paced at `MAIL_RATE`'s report share, and where reports go to chat, consumed in
 * this process: the fan-out queue an account report's notice is published on (routed there to
 * one job per channel) and the channel queue (those jobs, and a digest's); a channel its worker
 * marks broken is announced on a notify queue whose consumer (the notify handler, at the alert
 * share) emails it. `deliver` drains them in rounds until they are empty, before the command exits.
 */
export async function reportDepsFrom(rt: CliRuntime): Promise<{ deps: MissedReportsDeps; deliver: () => Promise<void> }> {
  const counters = memoryCounters();
  const governor = localMailGovernor(rt.settings, counters);
  const links = await rt.links();
  // Bound late: the notify handler takes the report's mail ports, built below.
  const channels = cliChannelQueues(rt, links, counters, { send: (entries) => notifyQueue.send(entries) });
  const { channelQueue } = channels;
  const deps: Omit<MissedReportsDeps, 'digest'> = {
    repos: rt.repos,
    channels: { channels: rt.repos.channels, alerts: rt.repos.alerts, channelQueue, links },
    fanOutQueue: channels.fanOutQueue,
    missedReports: rt.repos.missedReports,
    // Created when a report is built: a run with nothing due needs no chain settings.
    chain: { getPortfolio: (query, options) => rt.chain().getPortfolio(query, options) },
    sender: governor.sender(sesSenderFrom(rt.settings), 'report'),
    renderer: localEmailRenderer(rt.settings),
    links,
    mailFrom: rt.settings.MAIL_FROM,
    log: rt.log,
    counters,
    now: rt.now,
  };
  const notifyQueue = createLocalNotifyQueue({
    consumer: createNotifyHandler({ ...deps, repos: rt.repos, sender: governor.sender(sesSenderFrom(rt.settings), 'alert') }),
    visibilityTimeoutMs: 1_000,
  });
  return {
    deps: { ...deps, digest: digestSenderFor(deps) },
    deliver: async () => {
      await drainInRounds([channels.fanOutQueue, channelQueue, notifyQueue]);
    },
  };
}

const UNDELIVERED = new Set(['failed', 'retry', 'error']);

/**
 * `sentinel report [--account <address>] [--force [--recipient <email>]] [--json]`: sends the daily reports due now
 * (dispatched and sent as the scheduler does; or those of the selected accounts, or now regardless;
 * `--force --account A` sends A's report alone to each of its recipients, digest recipients too;
 * `--recipient` limits the run to one recipient's usual delivery); a day a recipient already had is
 * not sent to it again (`already sent`) unless `--resend`, which sends copies labelled so. Lists
 * today's missed reports; `--retry-missed` sends those instead.
 */
export function register(program: Command, context: CliContext): void {
  program
    .command('report')
    .description(
      'send the daily reports that are due now (accounts, and recipients with their own schedule); with --force, send now regardless to each recipient of the selected accounts what it gets on a normal day (extras, the schedules are unchanged)',
    )
    .option('--account <address>', 'only this account')
    .option('--force', 'send even if the report is not due')
    .option(
      '--recipient <email>',
      "with --force: send this one recipient its usual delivery now (its digest, or its accounts' reports), to it alone; with --account, that account's report alone",
    )
    .option(
      '--resend',
      'with --force: a day already sent is sent again, as a copy labelled so in every medium (without it, a recipient or channel that had the day gets nothing more)',
    )
    .option('--retry-missed', "send today's missed reports (claimed, not delivered within the grace): once each, under their regular delivery ids")
    .option('--json', 'print the outcomes as JSON')
    .action(async (options: { account?: string; force?: boolean; recipient?: string; resend?: boolean; retryMissed?: boolean; json?: boolean }) => {
      if (options.retryMissed && (options.force || options.account !== undefined || options.recipient !== undefined || options.resend)) {
        throw new UsageError('--retry-missed sends the missed reports as they were due: it takes neither --force, --account, --recipient nor --resend');
      }
      if (options.resend && !options.force) throw new UsageError('--resend sends again a day already sent: add --force');
      let recipient: string | undefined;
      if (options.recipient !== undefined) {
        if (!options.force) throw new UsageError('--recipient sends now, regardless of schedules: add --force');
        const parsed = z.email().safeParse(options.recipient.trim());
        if (!parsed.success) throw new UsageError(`--recipient "${options.recipient}" is not an email address`);
        recipient = parsed.data.toLowerCase();
      }
      let address: string | undefined;
      if (options.account !== undefined) {
        address = parseAddressArgument('--account', options.account);
      }
      const rt = await context.runtime();
      const { deps, deliver } = await reportDepsFrom(rt);
      const now = rt.now();
      if (options.retryMissed) {
        await retryMissed(context, deps, now, options.json ?? false, deliver);
        return;
      }
      const force = options.force ?? false;
      const copy = options.resend ?? false;
      if (address !== undefined && !(await rt.repos.accounts.get(address))) throw new Error(`${address} is not tracked`);
      const results =
        recipient === undefined ? await reportsNow(rt, deps, now, force, address, copy) : await recipientNow(rt, deps, now, recipient, address, copy);
      // The reports' chat messages, queued after their emails, go before the command ends (as the worker sends them in AWS),
      // with the notice of any channel that refused them for good.
      await deliver();

      const missed = await missedToday(deps, now);
      if (options.json) printJson(context.io, results);
      else if (results.length === 0 && missed.length === 0) context.io.out('no report was due\n');
      else if (results.length === 0) context.io.out('no report is due now\n');
      else {
        const addresses = results.flatMap((r) => (r.address === null ? [] : [r.address]));
        const labels = new Map((await rt.repos.accounts.getMany(addresses)).map((a) => [a.address as string, a.label]));
        context.io.out(
          formatTable(
            ['LABEL', 'ACCOUNT', 'OUTCOME', 'RECIPIENTS', 'NOTE', 'TO'],
            results.map((r) => [r.address === null ? '' : (labels.get(r.address) ?? ''), ...row(r)]),
          ),
        );
      }

      if (!options.json && missed.length > 0) {
        context.io.out(missed.map((m) => `missed today: ${missedReportLine(m)}\n`).join('') + 'send them with: sentinel report --retry-missed\n');
      }

      const undelivered = results.filter((r) => UNDELIVERED.has(r.outcome.kind));
      if (undelivered.length > 0) {
        const first = undelivered[0]?.outcome;
        const reason = first && 'reason' in first ? `: ${first.reason}` : '';
        throw new Error(`${undelivered.length} of ${plural(results.length, 'report')} not delivered${reason}`);
      }
    });
}

/**
 * Without `--account` or `--force`: the scheduled path, once (`report-dispatch`'s dispatch, then
 * the worker on each job queued). Otherwise the selected accounts' reports from here.
 */
async function reportsNow(
  rt: CliRuntime,
  deps: MissedReportsDeps,
  now: number,
  force: boolean,
  address: string | undefined,
  copy: boolean,
): Promise<ReportRunResult[]> {
  if (!force && address === undefined) {
    return dispatchAndDrainReports(
      { schedule: rt.repos.schedule, recipients: rt.repos.recipients, ledger: rt.repos.reportLedger, log: rt.log, now: () => now },
      deps,
    );
  }
  const accounts = address === undefined ? await rt.repos.accounts.list() : await rt.repos.accounts.getMany([address]);
  return sendSelectedReports(deps, now, force ? { kind: 'extra', accounts, only: address !== undefined, copy } : { kind: 'due', accounts });
}

/** `report --force --recipient`: the tracked accounts that mail the recipient (or the one of `--account`), then its usual delivery to it alone. */
async function recipientNow(
  rt: CliRuntime,
  deps: MissedReportsDeps,
  now: number,
  email: string,
  address: string | undefined,
  copy: boolean,
): Promise<ReportRunResult[]> {
  const mails = (account: TrackedAccount): boolean => account.emails.some((e) => e.trim().toLowerCase() === email);
  const accounts = (address === undefined ? await rt.repos.accounts.list() : await rt.repos.accounts.getMany([address])).filter(mails);
  if (accounts.length === 0)
    throw new UsageError(address === undefined ? `${email} gets reports from no tracked account` : `${address} does not mail ${email}`);
  return sendToRecipient(deps, email, accounts, address !== undefined, now, copy);
}

/** `report --retry-missed`: sends today's missed reports (and their chat messages), one row each; fails when one was not delivered. */
async function retryMissed(context: CliContext, deps: MissedReportsDeps, now: number, json: boolean, deliver: () => Promise<void>): Promise<void> {
  const results = await retryMissedReports(deps, now);
  await deliver();
  if (json) printJson(context.io, results);
  else if (results.length === 0) context.io.out('no missed report to send\n');
  else context.io.out(formatTable(['REPORT', 'DAY', 'OUTCOME', 'NOTE'], results.map(retryRow)));
  const undelivered = results.filter((r) => r.outcome.kind === 'error' || r.outcome.kind === 'failed');
  const first = undelivered[0]?.outcome;
  if (first)
    throw new Error(`${undelivered.length} of ${plural(results.length, 'missed report')} not delivered${'reason' in first ? `: ${first.reason}` : ''}`);
}

function retryRow({ missed, outcome }: MissedRetryResult): string[] {
  const what = missed.job.kind === 'recipient' ? missed.job.email : missed.job.address;
  if (outcome.kind === 'recipient')
    return [what, missed.job.reportDate, 'handled', outcome.result.sends.map((send) => `${send.period}: ${send.outcome.kind}`).join(', ')];
  return [what, missed.job.reportDate, ...outcomeColumns(outcome).filter((_, i) => i !== 1)];
}

/** ACCOUNT, the outcome's columns, then TO: the recipients on the account's schedule, or the one recipient with its own. */
function row(result: ReportRunResult): string[] {
  if (!('email' in result)) return [result.address, ...outcomeColumns(result.outcome), "account's schedule"];
  const period = result.period === 'day' ? '' : ` (${result.period})`;
  return [result.address ?? `digest${period}`, ...outcomeColumns(result.outcome, result.period), `${result.email}${result.address === null ? '' : period}`];
}

function outcomeColumns(outcome: ReportRunResult['outcome'], span: ReportPeriod = 'day'): string[] {
  switch (outcome.kind) {
    case 'sent':
      return [
        outcome.copy === true ? 'sent (copy)' : outcome.forced ? 'sent (extra)' : 'sent',
        String(outcome.messages),
        `covers ${outcome.coveredDate}${outcome.failed > 0 ? `; ${outcome.failed} refused` : ''}`,
      ];
    case 'duplicate':
      return [
        'already sent',
        '0',
        span === 'day' ? `covers ${addDays(outcome.reportDate, -1)}; --force --resend sends a copy` : `${span}ly summary of ${outcome.reportDate}`,
      ];
    case 'not-due':
      return ['not due', '0', `next at ${new Date(outcome.nextAt).toISOString()}`];
    case 'skipped':
      return ['skipped', '0', outcome.reason];
    case 'failed':
    case 'retry':
    case 'error':
      return [outcome.kind, '0', outcome.reason];
  }
}
