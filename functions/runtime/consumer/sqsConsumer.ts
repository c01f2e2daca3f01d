import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from 'zod';
import type { MessageVisibility } from '../../queue/messageVisibility';
import type { WorkQueueSettings } from '../../queue/workQueueSettings';
import { describeError } from '../../shared/describeError';
import type { Counters, Log, Observability } from '../../shared/observability';
import { backoffSeconds } from './backoffSeconds';
import { isPoisonFailure } from './isPoisonFailure';
import { parseRecord } from './parseRecord';
import { processSqsBatch, type RecordScope } from './sqsBatch';

export type { RecordScope };

/** Metric: messages dropped because they can never succeed (`isPoisonFailure`), not retried. */
export const POISON_METRIC = 'PoisonMessages';

/** What every SQS consumer is given besides its service's ports. */
export interface ConsumerDeps {
  readonly log: Log;
  readonly counters: Counters;
  /** Flushes metrics at the end of every invocation. */
  readonly flush?: Observability['flush'];
  readonly addContext?: Observability['addContext'];
  /** Time kept free before the Lambda's timeout; default 5 s. */
  readonly deadlineMarginMs?: number;
  /** Sets a failed record's backoff delay (`ChangeMessageVisibility`); without it a failed record comes back after the queue's visibility timeout. */
  readonly visibility?: MessageVisibility;
  /** The queue's redelivery where it is not the deployed one (`spec.queue`): the local queues, which retry sooner. */
  readonly queue?: WorkQueueSettings;
  /** Records of a batch in progress at once where the spec sets none; default 10 (a whole batch). */
  readonly recordConcurrency?: number;
  /** Runs each record (see `SqsBatchOptions.recordScope`); never set in AWS. */
  readonly recordScope?: RecordScope;
}

/** One SQS consumer: its message contract and what it does with one message. */
export interface ConsumerSpec<S extends z.ZodType> {
  /** The message as the logs name it (`malformed <name> dropped`). */
  readonly name: string;
  readonly schema: S;
  /** Records of a batch in progress at once (1 = one after the other); default `deps.recordConcurrency`, else 10. */
  readonly concurrency?: number;
  /** Log fields that identify a message (never secrets); the record's `messageId` is added. */
  readonly about: (message: z.output<S>) => Record<string, unknown>;
  /**
   * Handles one message. A throw that can never succeed (`isPoisonFailure`) drops the message,
   * counted; any other lists the record in `batchItemFailures` (SQS redelivers it after its backoff).
   */
  readonly handle: (message: z.output<S>, about: Record<string, unknown>) => Promise<void>;
  /** Counted and logged (with the error) when `handle` throws for a reason that may pass. */
  readonly retry: { readonly metric: string; readonly level: 'warn' | 'error'; readonly message: string };
  /** The queue's settings: a failed record is hidden for `retryDelaySeconds` of its receive count (with `deps.visibility`). */
  readonly queue?: WorkQueueSettings;
  /**
   * FIFO queues: once a record of a message group fails for a passing reason, the later records
   * of that group in the batch are not handled and fail too, so the group keeps its order
   * (Powertools' `SqsFifoPartialProcessorAsync` with `skipGroupOnError`: records one after the
   * other). Off by default.
   */
  readonly holdGroupAfterFailure?: boolean;
}

/**
 * The one SQS consumer: the handler of every SQS-driven Lambda. Records of a batch are worked
 * through with `processSqsBatch` (partial batch response; records the invocation's deadline left
 * unstarted come back as failures), each body read against `spec.schema`. A message that can
 * never succeed is dropped and counted, not retried until the dead-letter queue: a malformed body
 * (`MalformedMessages`, logged with the reason only, never the body) and a failure
 * `isPoisonFailure` (`PoisonMessages`). Any other failure is retried with backoff: the record is
 * hidden for its `RetryLaterError.retryAfterMs`, or `retryDelaySeconds(spec.queue, receiveCount)`.
 * Metrics are flushed after every invocation.
 */
export function sqsConsumer<S extends z.ZodType>(deps: ConsumerDeps, spec: ConsumerSpec<S>) {
  const read = parseRecord(spec.schema);
  const hide = async (record: SQSRecord, error: unknown, about: Record<string, unknown>): Promise<void> => {
    if (!deps.visibility) return;
    const seconds = backoffSeconds(deps.queue ?? spec.queue, record, error);
    if (seconds === undefined) return;
    try {
      await deps.visibility.change(record, seconds);
    } catch (failure) {
      deps.log.warn('backoff not set; the message comes back after the visibility timeout', { ...about, error: describeError(failure, { audience: 'log' }) });
    }
  };
  const handleRecord = async (record: SQSRecord): Promise<void> => {
    const parsed = read(record.body);
    if (parsed.kind === 'malformed') {
      deps.counters.count('MalformedMessages');
      deps.log.error(`malformed ${spec.name} dropped`, { messageId: record.messageId, reason: parsed.reason });
      return;
    }
    const about = { messageId: record.messageId, ...spec.about(parsed.value) };
    try {
      await spec.handle(parsed.value, about);
    } catch (error) {
      if (isPoisonFailure(error)) {
        deps.counters.count(POISON_METRIC);
        deps.log.error(`${spec.name} can never succeed: dropped`, { ...about, error: describeError(error, { audience: 'log' }) });
        return;
      }
      deps.counters.count(spec.retry.metric);
      deps.log[spec.retry.level](spec.retry.message, { ...about, error: describeError(error, { audience: 'log' }) });
      await hide(record, error, about);
      throw error;
    }
  };
  const concurrency = spec.concurrency ?? deps.recordConcurrency ?? 10;
  return async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    if (context) deps.addContext?.(context);
    try {
      return await processSqsBatch(event, context, handleRecord, {
        concurrency,
        deadlineMarginMs: deps.deadlineMarginMs ?? 5_000,
        ...(spec.holdGroupAfterFailure ? { holdGroupAfterFailure: true } : {}),
        ...(deps.recordScope ? { recordScope: deps.recordScope } : {}),
      });
    } finally {
      deps.flush?.();
    }
  };
}
