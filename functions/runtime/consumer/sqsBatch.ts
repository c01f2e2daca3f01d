import { BatchProcessor, EventType, processPartialResponse, SqsFifoPartialProcessorAsync } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { DeadlineReachedError, deadlineOf, withDeadline } from '../../shared/deadline';

/** Runs one record's work. */
export type RecordScope = <T>(work: () => Promise<T>) => Promise<T>;

/** How a batch is worked through. */
export interface SqsBatchOptions {
  /** Records in progress at once (1 = one after the other). */
  readonly concurrency: number;
  /** Time kept free at the end of the invocation: no record starts, and no chain wait runs, within it. */
  readonly deadlineMarginMs: number;
  /** Wall clock of the deadline (the Lambda's remaining time is real time); default `Date.now`. */
  readonly now?: () => number;
  /**
   * Runs each record's work; default: as it is. Local runs on a simulated clock pass its `hold`,
   * so that one record sleeping (a backoff, a hung send) never lets the clock jump over the work
   * of the batch's other records, as it could not in AWS, where they run beside it.
   */
  readonly recordScope?: RecordScope;
  /**
   * FIFO queues: after a record of a message group failed, the group's later records are not
   * started and fail too (Powertools' `SqsFifoPartialProcessorAsync`, `skipGroupOnError`), records
   * one after the other whatever `concurrency` says.
   */
  readonly holdGroupAfterFailure?: boolean;
}

/**
 * Works through an SQS batch with Powertools' `BatchProcessor` (`SqsFifoPartialProcessorAsync`
 * when a failed record holds its FIFO group) and answers with the partial
 * batch response: a record whose `handle` throws is listed in `batchItemFailures` (SQS
 * redelivers it), the others are deleted. With a Lambda context, the invocation's remaining
 * time (read as the record starts) minus the margin is the deadline of every record (`withDeadline`); a record not started
 * by then is listed as failed, unprocessed, instead of the whole batch running into the timeout.
 * A fresh processor per call keeps concurrent local invocations apart.
 */
export async function processSqsBatch(
  event: SQSEvent,
  context: Context | undefined,
  handle: (record: SQSRecord) => Promise<void>,
  options: SqsBatchOptions,
): Promise<SQSBatchResponse> {
  const now = options.now ?? Date.now;
  const limit = concurrencyLimit(options.concurrency);
  const perRecord = (record: SQSRecord): Promise<void> =>
    limit(async () => {
      // Read as each record starts: the same end in AWS; a local process that is stopping ends it early.
      const deadline = deadlineOf(context, options.deadlineMarginMs, now());
      if (deadline !== undefined && now() >= deadline) throw new DeadlineReachedError(`record ${record.messageId}`);
      const work = () => withDeadline(deadline, () => handle(record));
      await (options.recordScope ? options.recordScope(work) : work());
    });
  const common = { ...(context === undefined ? {} : { context }), throwOnFullBatchFailure: false } as const;
  return options.holdGroupAfterFailure
    ? processPartialResponse(event, perRecord, new SqsFifoPartialProcessorAsync(), { ...common, skipGroupOnError: true })
    : processPartialResponse(event, perRecord, new BatchProcessor(EventType.SQS), { ...common, processInParallel: true });
}

/** Runs at most `limit` of the given tasks at once, in the order they were asked for. */
function concurrencyLimit(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active < limit) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      // A finished task hands its slot to the next waiting one.
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}
