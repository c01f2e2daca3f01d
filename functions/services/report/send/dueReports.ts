import type { ReportPeriod } from '../../../domain/recipientSettings';
import { followsAccountSchedule } from '../../../domain/recipientSettings';
import { describeError } from '../../../shared/describeError';
import type { AccountRecord } from '../../../store/accountItem';
import type { AccountsRepository } from '../../../store/accountsRepository';
import { mapConcurrent } from '../../../store/concurrency';
import type { RecipientsRepository } from '../../../store/recipientsRepository';
import { accountFollowers } from './accountFollowers';
import { claimRecipient } from '../schedule/dispatchRecipientReports';
import type { RecipientReportDeps } from './reportDeps';
import { sendRecipientReports, type RecipientRun } from './sendRecipientReports';
import { sendDailyReport, type ReportOutcome } from './sendAccountReport';

export interface DueReportsDeps extends RecipientReportDeps {
  readonly repos: RecipientReportDeps['repos'] & {
    readonly accounts: Pick<AccountsRepository, 'get' | 'getMany' | 'list' | 'queryReportsDue' | 'setNextReportAt'>;
    readonly recipients: Pick<RecipientsRepository, 'get' | 'getMany' | 'queryDue' | 'setNextReportAt'>;
  };
}

export interface DueReportsOptions {
  /** Send now even where the report is not due (extras; the schedules are unchanged). */
  readonly force?: boolean;
  /** Only these accounts (and, forced, the recipients of these accounts); default every account. */
  readonly accounts?: readonly string[];
  /** Reports prepared at once; default 4. */
  readonly concurrency?: number;
}

type RunOutcome = ReportOutcome | { kind: 'error'; reason: string };

/** One account's report to the recipients that follow its schedule; `error` when something unexpected (e.g. a store failure) stopped it. */
export interface AccountReportResult {
  readonly address: string;
  readonly outcome: RunOutcome;
}

/** One email of a recipient's own schedule: its digest (`address` null) or one account's report to it alone. */
export interface RecipientSendResult {
  readonly email: string;
  readonly period: ReportPeriod;
  readonly address: string | null;
  readonly outcome: RunOutcome;
}

export type ReportRunResult = AccountReportResult | RecipientSendResult;

/**
 * `sentinel report` (and the demo), from this process, under the same delivery ids as the
 * scheduled path (`dispatchReports` and the report queue), so a report is sent once whichever
 * gets there first. Due: the accounts whose report is due (`queryReportsDue`, an index query),
 * each re-read and sent to the recipients that follow its schedule; then, unless `accounts` is
 * given, the recipients whose own schedule is due (claimed like the dispatch does). Forced: each
 * selected account's report to its followers now, and to every other recipient of those accounts
 * what it gets on a normal day (its digest over all its accounts, or its per-account reports of
 * the selected accounts). One failure is recorded in its result and never stops the others.
 */
export async function dueReports(deps: DueReportsDeps, now: number, options: DueReportsOptions = {}): Promise<ReportRunResult[]> {
  const force = options.force ?? false;
  const selected = options.accounts;
  const candidates =
    selected !== undefined
      ? await deps.repos.accounts.getMany(selected)
      : force
        ? await deps.repos.accounts.list()
        : await deps.repos.accounts.queryReportsDue(now);
  const concurrency = options.concurrency ?? 4;
  const accountResults = await mapConcurrent(candidates, concurrency, ({ address }) =>
    guarded(deps, { address }, async (): Promise<AccountReportResult> => {
      // The index is eventually consistent: act on the account as stored now.
      const account = await deps.repos.accounts.get(address);
      if (!account) return { address, outcome: { kind: 'skipped', reason: 'the account is no longer tracked' } };
      const recipients = await accountFollowers(deps.repos.recipients, account);
      return { address, outcome: await sendDailyReport(deps, account, { now, force, recipients }) };
    }),
  );
  const recipientResults = force
    ? await forcedRecipients(deps, candidates, now, selected, concurrency)
    : selected === undefined
      ? await dueRecipients(deps, now, concurrency)
      : [];
  return [...accountResults, ...recipientResults.flat()];
}

async function forcedRecipients(
  deps: DueReportsDeps,
  accounts: readonly AccountRecord[],
  now: number,
  selected: readonly string[] | undefined,
  concurrency: number,
): Promise<RecipientSendResult[][]> {
  const records = await deps.repos.recipients.getMany(accounts.flatMap((account) => account.emails));
  const own = [...records.values()].filter((record) => !followsAccountSchedule(record));
  const run: RecipientRun = selected === undefined ? { kind: 'forced' } : { kind: 'forced', accounts: accounts.map((a) => a.address) };
  return mapConcurrent(own, concurrency, async (record) => runRecipient(deps, record.email, run, now));
}

async function dueRecipients(deps: DueReportsDeps, now: number, concurrency: number): Promise<RecipientSendResult[][]> {
  const due = await deps.repos.recipients.queryDue(now);
  return mapConcurrent(due, concurrency, async (record) => {
    const claim = claimRecipient(record, now);
    if (claim.kind === 'not-due' || record.nextReportAt === null) return [];
    const moved = await deps.repos.recipients.setNextReportAt(record.email, claim.nextReportAt, record.nextReportAt);
    // Lost: the dispatch (or another run) claimed it and sends it.
    if (moved.kind === 'lost' || claim.kind === 'reschedule' || claim.job === null) return [];
    return runRecipient(deps, record.email, { kind: 'scheduled', reportDate: claim.job.reportDate }, now);
  });
}

async function runRecipient(deps: DueReportsDeps, email: string, run: RecipientRun, now: number): Promise<RecipientSendResult[]> {
  try {
    const record = await deps.repos.recipients.get(email);
    if (!record) return [];
    const result = await sendRecipientReports(deps, record, run, now);
    return result.sends.map((send) => ({ email, period: send.period, address: send.account, outcome: send.outcome }));
  } catch (error) {
    const reason = describeError(error, { audience: 'log' });
    deps.log.error('recipient reports failed', { error: reason });
    deps.counters.count('ReportErrors');
    return [{ email, period: 'day', address: null, outcome: { kind: 'error', reason } }];
  }
}

async function guarded(deps: DueReportsDeps, about: { address: string }, fn: () => Promise<AccountReportResult>): Promise<AccountReportResult> {
  try {
    return await fn();
  } catch (error) {
    const reason = describeError(error, { audience: 'log' });
    deps.log.error('daily report failed', { account: about.address, error: reason });
    deps.counters.count('ReportErrors');
    return { address: about.address, outcome: { kind: 'error', reason } };
  }
}
