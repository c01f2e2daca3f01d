import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from 'zod';
import { parseRecord } from '../queue/parseRecord';
import { describeError } from '../shared/describeError';
import type { Counters, Log, Observability } from '../shared/observability';
import { processSqsBatch } from './sqsBatch';

/** What every SQS consumer is given besides its service's ports. */
export interface SqsHandlerDeps {
  readonly log: Log;
  readonly counters: Counters;
  /** Flushes metrics at the end of every invocation. */
  readonly flush?: Observability['flush'];
  readonly addContext?: Observability['addContext'];
  /** Time kept free before the Lambda's timeout; default 5 s. */
  readonly deadlineMarginMs?: number;
}

/** One SQS consumer: its message contract and what it does with one message. */
export interface SqsHandlerSpec<S extends z.ZodType> {
  /** The message as the logs name it (`malformed <name> dropped`). */
  readonly name: string;
  readonly schema: S;
  /** Records of a batch in progress at once (1 = one after the other). */
  readonly concurrency: number;
  /** Log fields that identify a message (never secrets); the record's `messageId` is added. */
  readonly about: (message: z.output<S>) => Record<string, unknown>;
  /** Handles one message; a throw lists the record in `batchItemFailures` (SQS redelivers it). */
  readonly handle: (message: z.output<S>, about: Record<string, unknown>) => Promise<void>;
  /** Counted and logged (with the error) when `handle` throws. */
  readonly retry: { readonly metric: string; readonly level: 'warn' | 'error'; readonly message: string };
}

/**
 * An SQS-driven Lambda handler: records of a batch worked through with `processSqsBatch` (partial
 * batch response; records the invocation's deadline left unstarted come back as failures), each
 * body read against `spec.schema`. A malformed body can never succeed: it is counted
 * (`MalformedMessages`), logged with the reason only (never the body) and dropped. Metrics are
 * flushed after every invocation.
 */
export function sqsHandler<S extends z.ZodType>(deps: SqsHandlerDeps, spec: SqsHandlerSpec<S>) {
  const read = parseRecord(spec.schema);
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
      deps.counters.count(spec.retry.metric);
      deps.log[spec.retry.level](spec.retry.message, { ...about, error: describeError(error, { audience: 'log' }) });
      throw error;
    }
  };
  return async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    if (context) deps.addContext?.(context);
    try {
      return await processSqsBatch(event, context, handleRecord, {
        concurrency: spec.concurrency,
        deadlineMarginMs: deps.deadlineMarginMs ?? 5_000,
      });
    } finally {
      deps.flush?.();
    }
  };
}
