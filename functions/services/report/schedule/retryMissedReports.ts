import { describeError } from '../../../shared/describeError';
import type { MissedReport, MissedReportsRepository } from '../../../store/missedReportsRepository';
import type { ReportDeps } from '../send/reportDeps';
import type { ReportJobOutcome } from '../../../domain/reportOutcome';
import { sendReportJob } from '../send/sendReportJob';

/** How far back "today's" missed reports go: the last 24 hours of due times. */
export const MISSED_LOOKBACK_MS = 86_400_000;

/** The report service's ports, and the missed-report records. */
export interface MissedReportsDeps extends ReportDeps {
  readonly missedReports: Pick<MissedReportsRepository, 'dueBetween' | 'markRetried'>;
}

/** One missed report sent again: what the job did, or why it failed again. */
export interface MissedRetryResult {
  readonly missed: MissedReport;
  readonly outcome: ReportJobOutcome | { kind: 'error'; reason: string };
}

/** The reports due in the last 24 hours recorded as missed and not sent again since. */
export async function missedToday(deps: Pick<MissedReportsDeps, 'missedReports'>, now: number): Promise<MissedReport[]> {
  const missed = await deps.missedReports.dueBetween(now - MISSED_LOOKBACK_MS, now);
  return missed.filter((m) => m.retriedAt === null);
}

/**
 * `sentinel report --retry-missed`: sends each of today's missed reports as its job would have
 * (`sendReportJob`, the regular delivery ids, so each account or recipient gets one delivery per
 * report day however often this runs, and whatever a late worker did), then notes it as retried.
 * Each copy it sends is a `reconciled` entry in its account's deliveries (a late send of a missed report).
 * One failure is recorded in its result and never stops the others; a failed one stays listed.
 */
export async function retryMissedReports(deps: MissedReportsDeps, now: number): Promise<MissedRetryResult[]> {
  const results: MissedRetryResult[] = [];
  for (const missed of await missedToday(deps, now)) {
    try {
      const outcome = await sendReportJob(deps, missed.job, { missed: true });
      if (outcome.kind !== 'failed') await deps.missedReports.markRetried(missed.job, deps.now());
      results.push({ missed, outcome });
    } catch (error) {
      const reason = describeError(error, { audience: 'log' });
      deps.log.error('missed report not sent again', { error: reason });
      results.push({ missed, outcome: { kind: 'error', reason } });
    }
  }
  return results;
}
