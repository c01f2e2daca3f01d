import type { AccountReportJob, RecipientReportJob, ReportJob } from '../../../messages/reportJob';
import { describeError } from '../../../shared/describeError';
import type { AccountsRepository } from '../../../store/accountsRepository';
import type { ReportLedgerRepository } from '../../../store/reportLedgerRepository';
import { accountFollowers } from './accountFollowers';
import type { RecipientReportDeps } from './reportDeps';
import { needsRetry, sendRecipientReports, type RecipientReportResult } from './sendRecipientReports';
import { sendDailyReport, type ReportOutcome } from './sendAccountReport';

/** Metric: seconds from a report's due minute to its sending, one value per report sent. */
export const REPORT_LATENESS_METRIC = 'ReportLatenessSeconds';

export interface ReportJobDeps extends RecipientReportDeps {
  readonly repos: RecipientReportDeps['repos'] & {
    readonly accounts: Pick<AccountsRepository, 'get' | 'getMany' | 'setNextReportAt'>;
    /** Told when the job is finished, or why it is to be retried. */
    readonly reportLedger: Pick<ReportLedgerRepository, 'finish' | 'noteFailure'>;
  };
  readonly now: () => number;
}

/** What one job did: an account's report, or a recipient's own reports. */
export type ReportJobOutcome = ReportOutcome | { kind: 'recipient'; result: RecipientReportResult };

/** A report job that must be delivered again later (passing failure, or not due yet). */
export class ReportJobRetryError extends Error {
  override readonly name = 'ReportJobRetryError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * Sends one claimed job, never before its due time. An account job re-reads the account (it may
 * have been removed) and delivers the report of `job.reportDate` to the recipients that follow
 * the account's schedule (`sendDailyReport` with `claimed` and `recipients`). A recipient job
 * re-reads the recipient and sends what its own schedule gives for that date
 * (`sendRecipientReports`). Every email goes under a stable delivery id, so a redelivered or
 * twice-queued job sends nothing more. Throws `ReportJobRetryError` when the job must come back:
 * a passing failure, another attempt still holding a delivery, or a job that arrives early.
 * Counts `ReportLatenessSeconds` for what it sent. The report ledger is told when the job is done
 * (what reconciliation checks), and the reason of each failed attempt (what a missed report shows).
 */
export async function sendReportJob(deps: ReportJobDeps, job: ReportJob): Promise<ReportJobOutcome> {
  const now = deps.now();
  if (now < job.dueAt) throw new ReportJobRetryError(`the report is due in ${Math.ceil((job.dueAt - now) / 1000)} s`);
  let outcome: ReportJobOutcome;
  try {
    outcome = job.kind === 'recipient' ? await sendRecipientJob(deps, job, now) : await sendAccountJob(deps, job, now);
  } catch (error) {
    await deps.repos.reportLedger.noteFailure(job, describeError(error, { audience: 'log' }));
    throw error;
  }
  await deps.repos.reportLedger.finish(job);
  return outcome;
}

async function sendAccountJob(deps: ReportJobDeps, job: AccountReportJob, now: number): Promise<ReportOutcome> {
  const account = await deps.repos.accounts.get(job.address);
  if (!account) return { kind: 'skipped', reason: 'the account is no longer tracked' };
  const recipients = await accountFollowers(deps.repos.recipients, account);
  const outcome = await sendDailyReport(deps, account, { now, claimed: { reportDate: job.reportDate }, recipients });
  if (outcome.kind === 'retry') throw new ReportJobRetryError(outcome.reason);
  if (outcome.kind === 'sent') deps.counters.seconds?.(REPORT_LATENESS_METRIC, Math.max(0, deps.now() - job.dueAt) / 1000);
  return outcome;
}

async function sendRecipientJob(deps: ReportJobDeps, job: RecipientReportJob, now: number): Promise<ReportJobOutcome> {
  const record = await deps.repos.recipients.get(job.email);
  if (!record) return { kind: 'skipped', reason: 'the recipient has no record any more' };
  const result = await sendRecipientReports(deps, record, { kind: 'scheduled', reportDate: job.reportDate }, now);
  const retry = needsRetry(result);
  if (retry !== null) throw new ReportJobRetryError(retry);
  if (result.sends.some((send) => send.outcome.kind === 'sent')) {
    deps.counters.seconds?.(REPORT_LATENESS_METRIC, Math.max(0, deps.now() - job.dueAt) / 1000);
  }
  return { kind: 'recipient', result };
}
