import type { ReportJob } from '../functions/messages/reportJob';
import { dispatchReports, type ReportDispatchOutcome } from '../functions/services/report/dispatchReports';
import { REPORT_BATCH_SIZE, REPORT_WORKER_CONCURRENCY } from '../functions/services/report/reportWorkers';
import type { Log } from '../functions/shared/observability';
import type { AccountsRepository } from '../functions/store/accountsRepository';
import type { RecipientsRepository } from '../functions/store/recipientsRepository';
import { InProcessQueue, type DrainResult, type QueueClock, type SqsLambdaHandler } from './queue/inProcessQueue';

export interface LocalReportPipelineDeps {
  readonly accounts: Pick<AccountsRepository, 'queryReportsDue' | 'setNextReportAt'>;
  readonly recipients: Pick<RecipientsRepository, 'queryDue' | 'setNextReportAt'>;
  readonly log: Log;
  readonly now: () => number;
  /** The report-queue consumer: the deployed `daily-report` handler. */
  readonly consumer: SqsLambdaHandler;
  readonly queueClock?: QueueClock;
  /** How long a failed job waits before redelivery; default 30 s. */
  readonly visibilityTimeoutMs?: number;
  /** Concurrent workers (default: as deployed, `REPORT_WORKER_CONCURRENCY`). */
  readonly concurrency?: number;
}

/**
 * The report pipeline as it runs in AWS, with an in-process queue in place of SQS:
 * per-minute dispatch → report queue → `daily-report` workers (as many and with the batch size
 * deployed). Only the queue and the trigger differ.
 */
export function createLocalReportPipeline(deps: LocalReportPipelineDeps) {
  const reportQueue = new InProcessQueue<ReportJob>({
    name: 'sentinel-report',
    consumer: deps.consumer,
    batchSize: REPORT_BATCH_SIZE,
    visibilityTimeoutMs: deps.visibilityTimeoutMs ?? 30_000,
    maxReceiveCount: 5,
    ...(deps.queueClock ? { clock: deps.queueClock } : {}),
  });
  const pollers = { concurrency: deps.concurrency ?? REPORT_WORKER_CONCURRENCY };
  const dispatchDeps = { accounts: deps.accounts, recipients: deps.recipients, reportQueue, log: deps.log, now: deps.now };
  return {
    reportQueue,
    /** One run of `report-dispatch`: queues (and claims) the reports due now. */
    dispatch: (): Promise<ReportDispatchOutcome> => dispatchReports(dispatchDeps),
    /** Delivers until the queue is empty (tests, the benchmark). */
    drain: (): Promise<DrainResult> => reportQueue.drain(pollers),
    /** Background workers (`npm start`, `serve`). */
    start: (): void => reportQueue.start(pollers),
    stop: (): Promise<void> => reportQueue.stop(),
  };
}

export type LocalReportPipeline = ReturnType<typeof createLocalReportPipeline>;
