import type { ReportJob } from '../functions/messages/reportJob';
import type { MessageQueue, QueueEntry } from '../functions/queue/messageQueue';
import { dispatchReports, type ReportDispatchDeps, type ReportDispatchOutcome } from '../functions/services/report/schedule/dispatchReports';
import type { ReportDeps } from '../functions/services/report/send/reportDeps';
import { runReportJob } from '../functions/services/report/send/sendReportJob';
import type { ReportRunResult } from '../functions/services/report/send/sendSelectedReports';
import { describeError } from '../functions/shared/describeError';
import { mapConcurrent } from '../functions/shared/concurrency';
import { REPORT_BATCH_SIZE, REPORT_QUEUE, REPORT_WORKER_CONCURRENCY } from '../functions/services/report/schedule/reportWorkers';
import type { Log } from '../functions/shared/observability';
import { reconcileReports, type ReconcileDeps, type ReconcileOutcome } from '../functions/services/report/schedule/reconcileReports';
import type { AccountScheduleRepository } from '../functions/store/accountScheduleRepository';
import type { RecipientsRepository } from '../functions/store/recipientsRepository';
import type { ReportLedgerRepository } from '../functions/store/reportLedgerRepository';
import { InProcessQueue, type DrainResult, type QueueClock, type SqsLambdaHandler } from './queue/inProcessQueue';
import type { QueueJournal } from './queue/queueJournal';

/** An explicit redelivery of the local report queue (tests). */
export interface ReportQueueRetries {
  readonly visibilityTimeoutMs: number;
  readonly maxReceiveCount: number;
}

export interface LocalReportPipelineDeps {
  readonly schedule: Pick<AccountScheduleRepository, 'queryReportsDue' | 'setNextReportAt'>;
  readonly recipients: Pick<RecipientsRepository, 'queryDue' | 'setNextReportAt'>;
  /** Where dispatch records each job it queues. */
  readonly ledger: Pick<ReportLedgerRepository, 'queued'>;
  /** Reconciliation's ports (`report-dispatch` runs it after each dispatch); without them, no reconciliation. */
  readonly reconcile?: ReconcileDeps;
  readonly log: Log;
  readonly now: () => number;
  /** The report-queue consumer: the deployed `daily-report` handler. */
  readonly consumer: SqsLambdaHandler;
  readonly queueClock?: QueueClock;
  /**
   * Redelivery of a failed job: default the deployed report queue's (`REPORT_QUEUE`: 12 minutes,
   * 5 receives). Only tests shorten it, by passing this.
   */
  readonly retries?: ReportQueueRetries;
  /** Concurrent workers (default: as deployed, `REPORT_WORKER_CONCURRENCY`). */
  readonly concurrency?: number;
  /** Keeps the report queue's messages across restarts (`npm start`, `serve`); default memory only. */
  readonly journal?: QueueJournal;
}

/**
 * The report pipeline as it runs in AWS, with an in-process queue in place of SQS:
 * per-minute dispatch (and reconciliation) → report queue → `daily-report` workers (as many, with
 * the batch size and the redelivery deployed). Only the queue and the trigger differ.
 */
export function createLocalReportPipeline(deps: LocalReportPipelineDeps) {
  const reportQueue = new InProcessQueue<ReportJob>({
    name: 'sentinel-report',
    consumer: deps.consumer,
    batchSize: REPORT_BATCH_SIZE,
    visibilityTimeoutMs: deps.retries?.visibilityTimeoutMs ?? REPORT_QUEUE.visibilityTimeoutSeconds * 1_000,
    maxReceiveCount: deps.retries?.maxReceiveCount ?? REPORT_QUEUE.maxReceiveCount,
    ...(deps.queueClock ? { clock: deps.queueClock } : {}),
    ...(deps.journal ? { journal: deps.journal } : {}),
  });
  const pollers = { concurrency: deps.concurrency ?? REPORT_WORKER_CONCURRENCY };
  const dispatchDeps = { schedule: deps.schedule, recipients: deps.recipients, reportQueue, ledger: deps.ledger, log: deps.log, now: deps.now };
  const reconcile = deps.reconcile;
  return {
    reportQueue,
    /** One run of `report-dispatch`: queues (and claims) the reports due now. */
    dispatch: (): Promise<ReportDispatchOutcome> => dispatchReports(dispatchDeps),
    /** What `report-dispatch` runs after each dispatch: claimed reports past their grace and not finished are recorded as missed, the operator told. */
    reconcile: async (): Promise<ReconcileOutcome> => (reconcile ? reconcileReports(reconcile, deps.now()) : { missed: [], cursor: 'unchanged' }),
    /** Delivers until the queue is empty (tests, the benchmark). */
    drain: (): Promise<DrainResult> => reportQueue.drain(pollers),
    /** Background workers (`npm start`, `serve`). */
    start: (): void => reportQueue.start(pollers),
    stop: (): Promise<void> => reportQueue.stop(),
  };
}

export type LocalReportPipeline = ReturnType<typeof createLocalReportPipeline>;

/**
 * `sentinel report`: one run of `report-dispatch` (`dispatchReports`: the reports due now are
 * queued, recorded in the report ledger and claimed) into a queue of this process, then that
 * queue drained through the report worker's own `runReportJob`, as many at once as the deployed
 * workers, each job's outcome kept for the table. A job left to retry is not delivered again in
 * this process: like a worker's last failed attempt, reconciliation records it as missed
 * (`report --retry-missed`). One failure is recorded in its result and never stops the others.
 */
export async function dispatchAndDrainReports(dispatch: Omit<ReportDispatchDeps, 'reportQueue'>, worker: ReportDeps): Promise<ReportRunResult[]> {
  const queued: ReportJob[] = [];
  const reportQueue: MessageQueue<ReportJob> = {
    send: async (entries: readonly QueueEntry<ReportJob>[]) => {
      queued.push(...entries.map((entry) => entry.body));
      return { sent: entries.map((entry) => entry.id), failed: [] };
    },
  };
  await dispatchReports({ ...dispatch, reportQueue });
  const results = await mapConcurrent(queued, REPORT_WORKER_CONCURRENCY, (job) => runJob(worker, job));
  return results.flat();
}

async function runJob(deps: ReportDeps, job: ReportJob): Promise<ReportRunResult[]> {
  try {
    const outcome = await runReportJob(deps, job);
    if (outcome.kind === 'recipient')
      return outcome.result.sends.map((send) => ({ email: outcome.result.email, period: send.period, address: send.account, outcome: send.outcome }));
    // A recipient job whose recipient has no record any more sends nothing and shows nothing.
    return job.kind === 'recipient' ? [] : [{ address: job.address, outcome }];
  } catch (error) {
    const reason = describeError(error, { audience: 'log' });
    deps.log.error(job.kind === 'recipient' ? 'recipient reports failed' : 'daily report failed', {
      ...(job.kind === 'recipient' ? {} : { account: job.address }),
      error: reason,
    });
    deps.counters.count('ReportErrors');
    return [
      job.kind === 'recipient'
        ? { email: job.email, period: 'day', address: null, outcome: { kind: 'error', reason } }
        : { address: job.address, outcome: { kind: 'error', reason } },
    ];
  }
}
