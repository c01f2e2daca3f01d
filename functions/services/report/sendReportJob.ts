import type { ReportJob } from '../../messages/reportJob';
import type { AccountsRepository } from '../../store/accountsRepository';
import { sendDailyReport, type DailyReportDeps, type ReportOutcome } from './sendDailyReport';

/** Metric: seconds from a report's due minute to its sending, one value per report sent. */
export const REPORT_LATENESS_METRIC = 'ReportLatenessSeconds';

export interface ReportJobDeps extends DailyReportDeps {
  readonly repos: DailyReportDeps['repos'] & { readonly accounts: Pick<AccountsRepository, 'get' | 'setNextReportAt'> };
  readonly now: () => number;
}

/** A report job that must be delivered again later (passing failure, or not due yet). */
export class ReportJobRetryError extends Error {
  override readonly name = 'ReportJobRetryError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * Sends the claimed report of one job: re-reads the account (it may have been removed) and
 * delivers the report of `job.reportDate` once per recipient (`sendDailyReport` with `claimed`),
 * so a redelivered or twice-queued job sends nothing more. Throws `ReportJobRetryError` when the
 * job must come back: a passing failure, another attempt still holding a delivery, or a job that
 * arrives before its due time (never sent early). Counts `ReportLatenessSeconds` for a report sent.
 */
export async function sendReportJob(deps: ReportJobDeps, job: ReportJob): Promise<ReportOutcome> {
  const now = deps.now();
  if (now < job.dueAt) throw new ReportJobRetryError(`the report is due in ${Math.ceil((job.dueAt - now) / 1000)} s`);
  const account = await deps.repos.accounts.get(job.address);
  if (!account) return { kind: 'skipped', reason: 'the account is no longer tracked' };
  const outcome = await sendDailyReport(deps, account, { now, claimed: { reportDate: job.reportDate } });
  if (outcome.kind === 'retry') throw new ReportJobRetryError(outcome.reason);
  if (outcome.kind === 'sent') deps.counters.seconds?.(REPORT_LATENESS_METRIC, Math.max(0, deps.now() - job.dueAt) / 1000);
  return outcome;
}
