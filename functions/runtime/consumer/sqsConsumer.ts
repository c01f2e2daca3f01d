import { BatchProcessor, EventType, processPartialResponse, SqsFifoPartialProcessorAsync } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from 'zod';
import type { MessageVisibility } from '../../queue/messageVisibility';
import type { WorkQueueSettings } from '../../queue/workQueueSettings';
import { DeadlineReachedError, withDeadline } from '../../shared/deadline';
import { describeError } from '../../shared/describeError';
import { firstIssue } from '../../shared/firstIssue';
import type { Counters, Log, Observability } from '../../shared/observability';
import { RetryLaterError } from '../../shared/retryLaterError';
import { isPoisonFailure } from './isPoisonFailure';

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

/** A queue message body read against its contract, or why it cannot be. */
export type ParsedRecord<T> = { readonly kind: 'ok'; readonly value: T } | { readonly kind: 'malformed'; readonly reason: string };

/**
 * A reader of JSON message bodies (SQS bodies, SNS messages) for `schema`. The reason of a
 * malformed body names the first failing field (`body` for the whole) and never quotes the body.
 */
export function parseRecord<S extends z.ZodType>(schema: S): (body: string) => ParsedRecord<z.output<S>> {
  return (body) => {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return { kind: 'malformed', reason: 'body is not JSON' };
    }
    const parsed = schema.safeParse(json);
    if (parsed.success) return { kind: 'ok', value: parsed.data };
    return { kind: 'malformed', reason: firstIssue(parsed.error, 'body') };
  };
}

/** The longest visibility SQS accepts (`ChangeMessageVisibility`): 12 hours. */
const MAX_VISIBILITY_SECONDS = 43_200;

/**
 * How long a message that failed for a passing reason on its `receiveCount`-th receive stays
 * hidden: the consumer's timeout, doubling per receive (2, 4, 8 min for a 2-minute consumer),
 * at most the queue's visibility timeout. So the retries end well inside `retryWindowMs`, which
 * stays the bound (a record the deadline left unstarted, or a crashed invocation, keeps the full
 * visibility timeout).
 */
export function retryDelaySeconds(settings: WorkQueueSettings, receiveCount: number): number {
  const retry = Math.max(0, Math.floor(receiveCount) - 1);
  return Math.min(settings.visibilityTimeoutSeconds, settings.consumerTimeoutSeconds * 2 ** Math.min(retry, 20));
}

/** The failed record's delay before its next receive: the error's own, else the queue's backoff; `undefined` leaves the visibility timeout. */
function backoffSeconds(queue: WorkQueueSettings | undefined, record: SQSRecord, error: unknown): number | undefined {
  if (error instanceof RetryLaterError && error.retryAfterMs !== undefined) {
    return Math.min(MAX_VISIBILITY_SECONDS, Math.max(0, Math.ceil(error.retryAfterMs / 1_000)));
  }
  if (!queue) return undefined;
  const receiveCount = Number(record.attributes.ApproximateReceiveCount);
  return retryDelaySeconds(queue, Number.isFinite(receiveCount) && receiveCount >= 1 ? receiveCount : 1);
}

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

/** What a Lambda context offers to compute a deadline from. */
export interface RemainingTime {
  getRemainingTimeInMillis(): number;
}

/**
 * The invocation's end minus `marginMs`, as epoch ms; undefined without a context (local callers).
 * Part of consuming a batch (which records may still start); the scheduled dispatch reads it too.
 */
export function deadlineOf(context: RemainingTime | undefined, marginMs: number, now: number): number | undefined {
  if (context === undefined || typeof context.getRemainingTimeInMillis !== 'function') return undefined;
  const remaining = context.getRemainingTimeInMillis();
  return Number.isFinite(remaining) ? now + remaining - marginMs : undefined;
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
