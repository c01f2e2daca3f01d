import { HANDLER_CATALOG } from '../../../config/handlerCatalog';
import { workQueueSettings, type WorkQueueSettings } from '../../../queue/workQueueSettings';

/**
 * Instances of the report worker at once (the report queue event source's `maxConcurrency`, and
 * the in-process queue's pollers locally). Each renders a batch in parallel; the mail-rate governor,
 * not this number, sets the pace. Four instances of 1 vCPU render well over 14 reports/s.
 */
export const REPORT_WORKER_CONCURRENCY = 4;

/** Report jobs per worker invocation. */
export const REPORT_BATCH_SIZE = 10;

/** The report worker's (`daily-report`) Lambda timeout, seconds. */
export const REPORT_WORKER_TIMEOUT_SECONDS = HANDLER_CATALOG['daily-report'].sizing.timeoutSeconds;

/**
 * The report queue's redelivery, read by the CDK report queue and by the local report pipeline
 * (`npm start`, `serve`): a failing job comes back after 12 minutes, five times, as deployed.
 */
export const REPORT_QUEUE: WorkQueueSettings = workQueueSettings(REPORT_WORKER_TIMEOUT_SECONDS);
