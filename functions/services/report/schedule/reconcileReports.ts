import { retryWindowMs } from '../../../queue/workQueueSettings';
import type { Counters, Log } from '../../../shared/observability';
import type { MissedReport, MissedReportsRepository } from '../../../store/missedReportsRepository';
import type { ReportLedgerRepository } from '../../../store/reportLedgerRepository';
import type { OperatorNotice } from './operatorNotice';
import { REPORT_QUEUE } from './reportWorkers';
import { recordMissedDeliveries, type MissedDeliveryPorts } from './missedDeliveries';

/** Metric: reports found missed by reconciliation (its alarm tells the alarm topic). */
export const REPORTS_MISSED_METRIC = 'ReportsMissed';

/**
 * The grace after a report's due time before it counts as missed: `minutes` when set
 * (`REPORT_MISSED_GRACE_MINUTES`), else the report queue's retry window, after which SQS no longer
 * brings the job back (12 min x 5 receives = 60 min).
 */
export function missedReportGraceMs(minutes: number | undefined): number {
  return minutes === undefined ? retryWindowMs(REPORT_QUEUE) : minutes * 60_000;
}

/** How far back the first reconciliation (no cursor yet) looks. */
const FIRST_LOOKBACK_MS = 86_400_000;

export interface ReconcileDeps {
  readonly ledger: Pick<ReportLedgerRepository, 'queuedDue' | 'markMissed' | 'cursor' | 'advanceCursor'>;
  readonly missed: Pick<MissedReportsRepository, 'record' | 'markNotified'>;
  readonly notice: OperatorNotice;
  /** The accounts' deliveries, where each missed report is listed (`recordMissedDeliveries`). */
  readonly deliveries: MissedDeliveryPorts;
  readonly counters: Counters;
  readonly log: Log;
  /** How long after its due time a claimed report may still be delivered before it counts as missed. */
  readonly graceMs: number;
}

export interface ReconcileOutcome {
  /** Reports recorded as missed by this run. */
  readonly missed: MissedReport[];
  /** The run that moved the cursor first did the work; this one found the cursor moved (`lost`). */
  readonly cursor: 'advanced' | 'lost' | 'unchanged';
}

/**
 * Reconciliation of the scheduled reports (run by `report-dispatch` after its dispatch): every job
 * the dispatch claimed that was due from the last run's cursor up to `now - grace` and is still
 * `queued` in the ledger (no attempt finished it) is recorded as missed, one record per account or
 * recipient and report day, and listed as `missed` in its accounts' deliveries; the operator is
 * told once of those not told yet, and `ReportsMissed` counts them. Then the cursor moves on. Idempotent: a re-run records nothing twice
 * and tells nothing twice; a failure before the cursor moves is picked up by the next run.
 */
export async function reconcileReports(deps: ReconcileDeps, now: number): Promise<ReconcileOutcome> {
  const upTo = now - deps.graceMs;
  const cursor = await deps.ledger.cursor();
  const from = Math.max(cursor ?? upTo - FIRST_LOOKBACK_MS, upTo - FIRST_LOOKBACK_MS);
  if (cursor !== null && Math.floor(upTo / 60_000) <= Math.floor(cursor / 60_000)) return { missed: [], cursor: 'unchanged' };
  const pending = await deps.ledger.queuedDue(from, upTo);
  const recorded: MissedReport[] = [];
  for (const entry of pending) {
    const missed = await deps.missed.record(entry.job, entry.reason, now);
    await recordMissedDeliveries(deps.deliveries, missed, deps.graceMs);
    recorded.push(missed);
  }
  const untold = recorded.filter((missed) => missed.notifiedAt === null);
  if (untold.length > 0) {
    deps.counters.count(REPORTS_MISSED_METRIC, untold.length);
    await deps.notice.tell(untold, now);
    for (const missed of untold) await deps.missed.markNotified(missed.job, now);
  }
  for (const entry of pending) await deps.ledger.markMissed(entry.job);
  const moved = await deps.ledger.advanceCursor(cursor, upTo);
  return { missed: recorded, cursor: moved.kind };
}
