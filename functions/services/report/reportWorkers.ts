/**
 * Instances of the report worker at once (the report queue event source's `maxConcurrency`, and
 * the in-process queue's pollers locally). Each renders a batch in parallel; the mail-rate governor,
 * not this number, sets the pace. Four instances of 1 vCPU render well over 14 reports/s.
 */
export const REPORT_WORKER_CONCURRENCY = 4;

/** Report jobs per worker invocation. */
export const REPORT_BATCH_SIZE = 10;
