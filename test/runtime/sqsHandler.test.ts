import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { sqsHandler, type SqsHandlerDeps } from '../../functions/runtime/sqsHandler';
import { memoryCounters, type Log } from '../../functions/shared/observability';
import { lambdaContext } from '../../local/lambdaContext';
import { sqsEvent } from '../support/sqsEvent';

type Line = { level: keyof Log; message: string; extra: Record<string, unknown> | undefined };

function recordingDeps(extra: Partial<SqsHandlerDeps> = {}) {
  const lines: Line[] = [];
  const at = (level: keyof Log) => (message: string, fields?: Record<string, unknown>) => void lines.push({ level, message, extra: fields });
  const log: Log = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  let flushes = 0;
  const contexts: Context[] = [];
  const deps: SqsHandlerDeps = {
    log,
    counters: memoryCounters(),
    flush: () => void flushes++,
    addContext: (context) => void contexts.push(context),
    ...extra,
  };
  return { deps, lines, contexts, flushes: () => flushes, counters: deps.counters as ReturnType<typeof memoryCounters> };
}

const jobSchema = z.strictObject({ id: z.string(), secret: z.string().optional() });

describe('sqsHandler', () => {
  it('hands parsed messages on, drops malformed ones (counted, logged without the body), and fails only the records that threw', async () => {
    const r = recordingDeps();
    const handled: string[] = [];
    const handler = sqsHandler(r.deps, {
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
    expect(malformed.map((l) => [l.level, l.extra?.['messageId'], l.extra?.['reason']])).toEqual([
      ['error', 'm1', 'body is not JSON'],
      ['error', 'm3', 'id: Invalid input: expected string, received undefined'],
    ]);
    expect(JSON.stringify(r.lines)).not.toContain('hunter2');
    const retried = r.lines.find((l) => l.message === 'test job to be retried');
    expect(retried).toMatchObject({ level: 'warn', extra: { messageId: 'm2', job: 'bad' } });
    expect(r.flushes()).toBe(1);
    expect(r.contexts).toEqual([context]);
  });

  it('returns the records the deadline left unstarted as failures, and still flushes', async () => {
    const r = recordingDeps({ deadlineMarginMs: 1_000 });
    const started: string[] = [];
    const handler = sqsHandler(r.deps, {
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
});
