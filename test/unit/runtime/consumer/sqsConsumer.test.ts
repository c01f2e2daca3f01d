import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { sqsConsumer, type ConsumerDeps } from '../../../../functions/runtime/consumer/sqsConsumer';
import { memoryCounters } from '../../../../functions/shared/observability';
import { lambdaContext } from '../../../../local/lambdaContext';
import { recordingLog } from '../../../support/recordingLog';
import { sqsEvent } from '../../../support/sqsEvent';
import { ChainHttpError } from '../../../../functions/chain/errors';
import type { MessageVisibility, ReceivedMessage } from '../../../../functions/queue/messageVisibility';
import { workQueueSettings } from '../../../../functions/queue/workQueueSettings';
import { RetryLaterError } from '../../../../functions/shared/retryLaterError';
import { StoreError } from '../../../../functions/store/errors';
import { POISON_METRIC } from '../../../../functions/runtime/consumer/sqsConsumer';

function recordingDeps(extra: Partial<ConsumerDeps> = {}) {
  const { log, lines } = recordingLog();
  let flushes = 0;
  const contexts: Context[] = [];
  const deps: ConsumerDeps = {
    log,
    counters: memoryCounters(),
    flush: () => void flushes++,
    addContext: (context) => void contexts.push(context),
    ...extra,
  };
  return { deps, lines, contexts, flushes: () => flushes, counters: deps.counters as ReturnType<typeof memoryCounters> };
}

const jobSchema = z.strictObject({ id: z.string(), secret: z.string().optional() });

describe('sqsConsumer', () => {
  it('hands parsed messages on, drops malformed ones (counted, logged without the body), and fails only the records that threw', async () => {
    const r = recordingDeps();
    const handled: string[] = [];
    const handler = sqsConsumer(r.deps, {
      name: 'test job',
      schema: jobSchema,
      concurrency: 2,
      about: (job) => ({ job: job.id }),
      handle: async (job, about) => {
        expect(about).toMatchObject({ job: job.id });
        if (job.id === 'bad') throw new Error('storage is down');
        handled.push(job.id);
      },
      retry: { metric: 'TestRetries', level: 'warn', message: 'test job to be retried' },
    });
    const context = lambdaContext('test', 60_000);

    const response = await handler(sqsEvent(['{"id":"a"}', 'not json', '{"id":"bad"}', '{"secret":"hunter2"}', '{"id":"b"}']), context);

    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm2' }]);
    expect(handled.sort()).toEqual(['a', 'b']);
    expect(r.counters.totals.get('MalformedMessages')).toBe(2);
    expect(r.counters.totals.get('TestRetries')).toBe(1);
    const malformed = r.lines.filter((l) => l.message === 'malformed test job dropped');
    expect(malformed.map((l) => [l.level, l.fields?.['messageId'], l.fields?.['reason']])).toEqual([
      ['error', 'm1', 'body is not JSON'],
      ['error', 'm3', 'id: Invalid input: expected string, received undefined'],
    ]);
    expect(JSON.stringify(r.lines)).not.toContain('hunter2');
    const retried = r.lines.find((l) => l.message === 'test job to be retried');
    expect(retried).toMatchObject({ level: 'warn', fields: { messageId: 'm2', job: 'bad' } });
    expect(r.flushes()).toBe(1);
    expect(r.contexts).toEqual([context]);
  });

  it('returns the records the deadline left unstarted as failures, and still flushes', async () => {
    const r = recordingDeps({ deadlineMarginMs: 1_000 });
    const started: string[] = [];
    const handler = sqsConsumer(r.deps, {
      name: 'test job',
      schema: jobSchema,
      concurrency: 1,
      about: (job) => ({ job: job.id }),
      handle: async (job) => {
        started.push(job.id);
        await new Promise((resolve) => setTimeout(resolve, 300));
      },
      retry: { metric: 'TestRetries', level: 'error', message: 'retried' },
    });

    // 1.2 s left, 1 s kept free: the first record starts, the ones after it find the deadline passed.
    const response = await handler(sqsEvent(['{"id":"a"}', '{"id":"b"}', '{"id":"c"}']), lambdaContext('test', 1_200));

    expect(started).toEqual(['a']);
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }, { itemIdentifier: 'm2' }]);
    expect(r.flushes()).toBe(1);
  });

  it('drops a message that can never succeed (counted), retries a passing failure after its backoff, and never drops on a deployment fault', async () => {
    const changes: { receiptHandle: string; seconds: number }[] = [];
    const visibility: MessageVisibility = {
      change: async (message: ReceivedMessage, seconds: number) => void changes.push({ receiptHandle: message.receiptHandle, seconds }),
    };
    const r = recordingDeps({ visibility });
    const failures: Record<string, () => Error> = {
      gone: () => new ChainHttpError({ request: 'GET /portfolio', status: 404, body: 'account not found', attempts: 1 }),
      throttled: () => new ChainHttpError({ request: 'GET /portfolio', status: 503, body: 'busy', attempts: 3 }),
      early: () => new RetryLaterError('the report is due in 90 s', { retryAfterMs: 89_001 }),
      denied: () => new StoreError('accounts.get', 'AccessDeniedException', { retryable: false }),
    };
    const handler = sqsConsumer(r.deps, {
      name: 'test job',
      schema: jobSchema,
      concurrency: 1,
      about: (job) => ({ job: job.id }),
      handle: (job) => Promise.reject(failures[job.id]?.() ?? new Error('unexpected')),
      retry: { metric: 'TestRetries', level: 'warn', message: 'retried' },
      queue: workQueueSettings(120),
    });
    const event = sqsEvent(['{"id":"gone"}', '{"id":"throttled"}', '{"id":"early"}', '{"id":"denied"}']);
    const third = event.Records[1];
    if (third) third.attributes.ApproximateReceiveCount = '3';

    const response = await handler(event, lambdaContext('test', 60_000));

    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }, { itemIdentifier: 'm2' }, { itemIdentifier: 'm3' }]);
    expect(r.counters.totals.get(POISON_METRIC)).toBe(1);
    expect(r.counters.totals.get('TestRetries')).toBe(3);
    expect(r.lines.find((l) => l.message === 'test job can never succeed: dropped')).toMatchObject({
      level: 'error',
      fields: { messageId: 'm0', job: 'gone' },
    });
    // Third receive of a 2-minute consumer: 2 x 2^2 = 8 min; the early job comes back when it is due; the store fault after 2 min.
    expect(changes).toEqual([
      { receiptHandle: 'r1', seconds: 480 },
      { receiptHandle: 'r2', seconds: 90 },
      { receiptHandle: 'r3', seconds: 120 },
    ]);
  });

  it('with holdGroupAfterFailure, fails the later records of a FIFO group after one of it failed, and handles the other groups', async () => {
    const r = recordingDeps();
    const handled: string[] = [];
    const spec = {
      name: 'unit',
      schema: jobSchema,
      concurrency: 1,
      about: (job: { id: string }) => ({ job: job.id }),
      handle: async (job: { id: string }) => {
        if (job.id === 'a1') throw new Error('signer unavailable');
        handled.push(job.id);
      },
      retry: { metric: 'UnitRetries', level: 'warn' as const, message: 'retried' },
    };
    const grouped = () => {
      const event = sqsEvent(['{"id":"a1"}', '{"id":"b1"}', '{"id":"a2"}', '{"id":"b2"}']);
      event.Records.forEach((record, i) => (record.attributes.MessageGroupId = i % 2 === 0 ? 'account-a' : 'account-b'));
      return event;
    };

    const held = await sqsConsumer(r.deps, { ...spec, holdGroupAfterFailure: true })(grouped(), lambdaContext('test', 60_000));
    expect(held.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }, { itemIdentifier: 'm2' }]);
    expect(handled).toEqual(['b1', 'b2']);

    handled.length = 0;
    const plain = await sqsConsumer(r.deps, spec)(grouped(), lambdaContext('test', 60_000));
    expect(plain.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }]);
    expect(handled).toEqual(['b1', 'a2', 'b2']);
  });
});
