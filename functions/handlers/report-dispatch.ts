import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { DeskOperatorsRepository } from '../store/deskOperatorsRepository';
import { AccountHistoryRepository } from '../store/accountHistoryRepository';
import { AccountsRepository } from '../store/accountsRepository';
import { sesSenderFrom, someRepositoriesFrom, sqsQueueFrom } from '../runtime/factories';
import { reconcileDepsFrom } from '../runtime/reconcileDepsFrom';
import { AccountScheduleRepository } from '../store/accountScheduleRepository';
import { MissedReportsRepository } from '../store/missedReportsRepository';
import { RecipientsRepository } from '../store/recipientsRepository';
import { ReportLedgerRepository } from '../store/reportLedgerRepository';
import { handlerBasics } from '../runtime/handlerBasics';
import { lazyHandler } from '../runtime/lazyHandler';
import { dispatchReports, type ReportDispatchDeps } from '../services/report/schedule/dispatchReports';
import { reconcileReports, type ReconcileDeps } from '../services/report/schedule/reconcileReports';
import type { Observability } from '../shared/observability';

/** EventBridge Scheduler passes whatever input the schedule was given; ours sends none or `{}`. */
const scheduledEventSchema = z.looseObject({}).nullish();

/** What `report-dispatch` needs: the dispatch's ports, reconciliation's, and a metrics flush per invocation. */
export interface ReportDispatchHandlerDeps extends ReportDispatchDeps {
  readonly reconcile: ReconcileDeps;
  readonly flush?: Observability['flush'];
}

/**
 * Fired every minute: queues the daily report of each account, and the reports of each recipient
 * with its own schedule, whose report time has come, and claims it; then reconciles: the claimed
 * reports past their grace with no finished attempt are recorded as missed and the operator is told.
 */
export function createReportDispatchHandler(deps: ReportDispatchHandlerDeps) {
  return async (event: unknown, _context?: Context): Promise<{ queued: number; rescheduled: number; lost: number; missed: number }> => {
    scheduledEventSchema.parse(event);
    try {
      const outcome = await dispatchReports(deps);
      const reconciled = await reconcileReports(deps.reconcile, deps.now());
      return { queued: outcome.queued.length, rescheduled: outcome.rescheduled, lost: outcome.lost.length, missed: reconciled.missed.length };
    } finally {
      deps.flush?.();
    }
  };
}

/** Builds the handler's dependencies from the environment (once per cold start). */
export function reportDispatchDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): ReportDispatchHandlerDeps {
  const { settings, log, counters, flush, now } = handlerBasics('report-dispatch', env);
  const repos = someRepositoriesFrom(settings, {
    schedule: AccountScheduleRepository,
    recipients: RecipientsRepository,
    reportLedger: ReportLedgerRepository,
    missedReports: MissedReportsRepository,
    deskOperators: DeskOperatorsRepository,
    accounts: AccountsRepository,
    history: AccountHistoryRepository,
  });
  return {
    schedule: repos.schedule,
    recipients: repos.recipients,
    reportQueue: sqsQueueFrom(settings, 'REPORT_QUEUE_URL'),
    ledger: repos.reportLedger,
    reconcile: reconcileDepsFrom(settings, { repos, sender: () => sesSenderFrom(settings), log, counters }),
    log,
    flush,
    now,
  };
}

/** AWS entry point. */
export const handler = lazyHandler(async () => createReportDispatchHandler(reportDispatchDepsFromEnv()));
