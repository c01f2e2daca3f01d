import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ChainHttpError } from '../../../functions/chain/errors';
import { retryDelaySeconds } from '../../../functions/runtime/consumer/sqsConsumer';
import { workQueueSettings } from '../../../functions/queue/workQueueSettings';
import { POISON_METRIC, sqsConsumer } from '../../../functions/runtime/consumer/sqsConsumer';
import { memoryCounters, silentLog } from '../../../functions/shared/observability';
import { InProcessQueue, type QueueClock } from '../../../local/queue/inProcessQueue';

function fakeClock(start = 1_000_000): QueueClock & { now(): number } {
  let now = start;
  return { now: () => now, sleep: async (ms) => void (now += ms) };
}

const job = z.strictObject({ id: z.string() });

describe('poison versus transient, through the local queue', () => {
  it('drops a poison message on its first receive (never dead-lettered) and brings a transient one back after each backoff delay', async () => {
    const clock = fakeClock();
    const settings = workQueueSettings(120);
    const counters = memoryCounters();
    const receives: { id: string; at: number; receiveCount: number }[] = [];
    let flaky = 0;
    const queue: InProcessQueue<{ id: string }> = new InProcessQueue({
      name: 'work',
      clock,
      visibilityTimeoutMs: settings.visibilityTimeoutSeconds * 1_000,
      maxReceiveCount: settings.maxReceiveCount,
      onDeadLetter: () => undefined,
      consumer: sqsConsumer(
        { log: silentLog, counters, visibility: { change: (message, seconds) => queue.change(message, seconds) } },
        {
          name: 'work item',
          schema: job,
          concurrency: 1,
          about: (item) => ({ item: item.id }),
          handle: async (item) => {
            const last = receives.filter((r) => r.id === item.id).length;
            receives.push({ id: item.id, at: clock.now(), receiveCount: last + 1 });
            if (item.id === 'gone') throw new ChainHttpError({ request: 'GET /portfolio', status: 404, body: 'unknown account', attempts: 1 });
            if (item.id === 'flaky' && ++flaky <= 3) throw new ChainHttpError({ request: 'GET /portfolio', status: 503, body: 'busy', attempts: 3 });
          },
          retry: { metric: 'WorkRetries', level: 'warn', message: 'retried' },
          queue: settings,
        },
      ),
    });
    const start = clock.now();
    await queue.send([
      { id: 'a', body: { id: 'gone' } },
      { id: 'b', body: { id: 'flaky' } },
    ]);

    const result = await queue.drain();

    expect(receives.filter((r) => r.id === 'gone')).toHaveLength(1);
    expect(counters.totals.get(POISON_METRIC)).toBe(1);
    expect(result.deadLettered).toBe(0);
    expect(queue.deadLetters()).toEqual([]);
    // The flaky one: 2, 4 and 8 minutes after each failed receive, not the 12-minute visibility timeout.
    const flakyAt = receives.filter((r) => r.id === 'flaky').map((r) => (r.at - start) / 1_000);
    const delays = [1, 2, 3].map((n) => retryDelaySeconds(settings, n));
    expect(delays).toEqual([120, 240, 480]);
    expect(flakyAt).toEqual([0, 120, 360, 840]);
    expect(counters.totals.get('WorkRetries')).toBe(3);
  });
});
