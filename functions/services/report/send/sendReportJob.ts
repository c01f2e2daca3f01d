import type { AccountReportJob, RecipientReportJob, ReportJob } from '../../../messages/reportJob';
import { describeError } from '../../../shared/describeError';
import { RetryLaterError } from '../../../shared/retryLaterError';
import type { ReportDeps } from './reportDeps';
import { needsRetry, sendRecipientReports, type RecipientReportResult } from './sendRecipientReports';
import { sendFollowersReport } from './sendAccountReport';
import type { ReportOutcome } from './reportOutcome';

/** Metric: seconds from a report's due minute to its sending, one value per report sent. */
export const REPORT_LATENESS_METRIC = 'ReportLatenessSeconds';

/** How a job is run: `missed` when it was recorded missed and this is its late send (`report --retry-missed`). */
export interface ReportJobOptions {
  readonly missed?: boolean;
}

/** What one job did: an account's report, or a recipient's own reports. */
export type ReportJobOutcome = ReportOutcome | { kind: 'recipient'; result: RecipientReportResult };

/**
 * The report worker's work: sends one claimed job and throws `RetryLaterError` when it must
 * come back (see `runReportJob`), so a queue delivers it again.
 */
export async function sendReportJob(deps: ReportDeps, job: ReportJob, options: ReportJobOptions = {}): Promise<ReportJobOutcome> {
  const outcome = await runReportJob(deps, job, options);
  const retry = retryReason(outcome);
  if (retry !== null) throw new RetryLaterError(retry);
  return outcome;
}

/**
 * Sends one claimed job, never before its due time (`RetryLaterError` after the time left when it arrives early).
 * An account job re-reads the account (it may have been removed) and delivers the report of
 * `job.reportDate` to the recipients that follow the account's schedule (`sendAccountReport`,
 * mode `scheduled`). A recipient job re-reads the recipient and sends what its own schedule gives
 * for that date (`sendRecipientReports`). Every email goes under a stable delivery id, so a
 * redelivered or twice-queued job sends nothing more. The outcome says when the job must come
 * back: a passing failure, or another attempt still holding a delivery (`retryReason`). Counts
 * `ReportLatenessSeconds` for what it sent. The report ledger is told when the job is done (what
 * reconciliation checks), and the reason of each failed attempt (what a missed report shows).
 */
export async function runReportJob(deps: ReportDeps, job: ReportJob, options: ReportJobOptions = {}): Promise<ReportJobOutcome> {
  const now = deps.now();
  if (now < job.dueAt) throw new RetryLaterError(`the report is due in ${Math.ceil((job.dueAt - now) / 1000)} s`, { retryAfterMs: job.dueAt - now });
  let outcome: ReportJobOutcome;
  try {
    const missed = options.missed === true ? { missed: true } : {};
    outcome = job.kind === 'recipient' ? await sendRecipientJob(deps, job, now, missed) : await sendAccountJob(deps, job, now, missed);
  } catch (error) {
    await deps.repos.reportLedger.noteFailure(job, describeError(error, { audience: 'log' }));
    throw error;
  }
  const retry = retryReason(outcome);
  if (retry !== null) {
    await deps.repos.reportLedger.noteFailure(job, describeError(new RetryLaterError(retry), { audience: 'log' }));
    return outcome;
  }
  if (sentSome(outcome)) deps.counters.seconds?.(REPORT_LATENESS_METRIC, Math.max(0, deps.now() - job.dueAt) / 1000);
  await deps.repos.reportLedger.finish(job);
  return outcome;
}

/** Why a job's outcome must be tried again later, or `null` when it is done. */
export function retryReason(outcome: ReportJobOutcome): string | null {
  if (outcome.kind === 'recipient') return needsRetry(outcome.result);
  return outcome.kind === 'retry' ? outcome.reason : null;
}

function sentSome(outcome: ReportJobOutcome): boolean {
  return outcome.kind === 'recipient' ? outcome.result.sends.some((send) => send.outcome.kind === 'sent') : outcome.kind === 'sent';
}

type Missed = { readonly missed?: boolean };

function sendAccountJob(deps: ReportDeps, job: AccountReportJob, now: number, missed: Missed): Promise<ReportOutcome> {
  return sendFollowersReport(deps, job.address, { kind: 'scheduled', reportDate: job.reportDate, dueAt: job.dueAt, ...missed }, now);
}

async function sendRecipientJob(deps: ReportDeps, job: RecipientReportJob, now: number, missed: Missed): Promise<ReportJobOutcome> {
  const record = await deps.repos.recipients.get(job.email);
  if (!record) return { kind: 'skipped', reason: 'the recipient has no record any more' };
  return {
    kind: 'recipient',
    result: await sendRecipientReports(deps, record, { kind: 'scheduled', reportDate: job.reportDate, dueAt: job.dueAt, ...missed }, now),
  };
}
