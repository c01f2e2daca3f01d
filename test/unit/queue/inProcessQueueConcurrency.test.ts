import { describe, expect, it, vi } from 'vitest';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { InProcessQueue, type QueueClock } from '../../../local/queue/inProcessQueue';

interface Job {
  n: number;
}

/** A clock that only moves when the queue sleeps. */
function fakeClock(start = 1_000_000): QueueClock {
  let now = start;
  return { now: () => now, sleep: async (ms) => void (now += ms) };
}

/**
 * A consumer that yields to the event loop mid-batch and counts how many of its calls run at
 * once, which messages are in flight, and every delivery; `fail` names the jobs to report as
 * failed on their first delivery.
 */
function overlapRecorder(fail: (n: number, receiveCount: number) => boolean = () => false) {
  const state = { running: 0, maxRunning: 0, calls: 0, deliveredTwiceAtOnce: 0 };
  const inFlight = new Set<number>();
  const deliveries: { n: number; receiveCount: number }[] = [];
  const consumer = async (event: SQSEvent): Promise<SQSBatchResponse> => {
    state.calls++;
    state.running++;
    state.maxRunning = Math.max(state.maxRunning, state.running);
    const jobs = event.Records.map((r) => ({ id: r.messageId, n: (JSON.parse(r.body) as Job).n, receiveCount: Number(r.attributes.ApproximateReceiveCount) }));
    for (const job of jobs) {
      if (inFlight.has(job.n)) state.deliveredTwiceAtOnce++;
      inFlight.add(job.n);
      deliveries.push({ n: job.n, receiveCount: job.receiveCount });
    }
    await new Promise((resolve) => setImmediate(resolve));
    for (const job of jobs) inFlight.delete(job.n);
    state.running--;
    return { batchItemFailures: jobs.filter((j) => fail(j.n, j.receiveCount)).map((j) => ({ itemIdentifier: j.id })) };
  };
  return { consumer, state, deliveries };
}

const jobs = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `job-${i}`, body: { n: i } }));
const range = (count: number) => Array.from({ length: count }, (_, i) => i);

describe('InProcessQueue with concurrent pollers', () => {
  it('drain({ concurrency }) delivers every message exactly once, with batches in flight at once', async () => {
    const { consumer, state, deliveries } = overlapRecorder();
    const queue = new InProcessQueue<Job>({ name: 'collect', consumer, batchSize: 5, clock: fakeClock() });
    await queue.send(jobs(53));
    const result = await queue.drain({ concurrency: 4 });
    expect(result).toEqual({ batches: 11, processed: 53, failedDeliveries: 0, deadLettered: 0 });
    expect(deliveries.map((d) => d.n).sort((a, b) => a - b)).toEqual(range(53));
    expect(deliveries.every((d) => d.receiveCount === 1)).toBe(true);
    expect(state.maxRunning).toBe(4);
    expect(state.deliveredTwiceAtOnce).toBe(0);
    expect(queue.counts()).toEqual({ visible: 0, hidden: 0, deadLettered: 0 });
  });

  it('keeps one batch at a time by default', async () => {
    const { consumer, state } = overlapRecorder();
    const queue = new InProcessQueue<Job>({ name: 'q', consumer, batchSize: 5, clock: fakeClock() });
    await queue.send(jobs(20));
    expect(await queue.drain()).toMatchObject({ batches: 4, processed: 20 });
    expect(state.maxRunning).toBe(1);
  });

  it('redelivers failed messages after their visibility timeout, never to two pollers at once', async () => {
    const { consumer, state, deliveries } = overlapRecorder((n, receiveCount) => n % 7 === 0 && receiveCount === 1);
    const queue = new InProcessQueue<Job>({ name: 'q', consumer, batchSize: 3, clock: fakeClock(), visibilityTimeoutMs: 30_000 });
    await queue.send(jobs(30));
    const result = await queue.drain({ concurrency: 3 });
    const failing = range(30).filter((n) => n % 7 === 0);
    expect(result).toMatchObject({ processed: 30, failedDeliveries: failing.length, deadLettered: 0 });
    expect(
      deliveries
        .filter((d) => d.receiveCount === 2)
        .map((d) => d.n)
        .sort((a, b) => a - b),
    ).toEqual(failing);
    expect(deliveries).toHaveLength(30 + failing.length);
    expect(state.maxRunning).toBe(3);
    expect(state.deliveredTwiceAtOnce).toBe(0);
  });

  it('start({ concurrency }) runs that many pollers in the background until stop()', async () => {
    const { consumer, state, deliveries } = overlapRecorder();
    const queue = new InProcessQueue<Job>({ name: 'q', consumer, batchSize: 2, pollIntervalMs: 5 });
    await queue.send(jobs(24));
    queue.start({ concurrency: 3 });
    await vi.waitFor(() => expect(deliveries).toHaveLength(24), { timeout: 5_000, interval: 10 });
    await queue.stop();
    expect(deliveries.map((d) => d.n).sort((a, b) => a - b)).toEqual(range(24));
    expect(state.maxRunning).toBe(3);
    expect(state.deliveredTwiceAtOnce).toBe(0);
  });

  it('refuses a concurrency that is not an integer from 1 to 1000', async () => {
    const queue = new InProcessQueue<Job>({ name: 'q', consumer: async () => undefined, clock: fakeClock() });
    await expect(queue.drain({ concurrency: 0 })).rejects.toThrow(/concurrency must be an integer from 1 to 1000, got 0/);
    expect(() => queue.start({ concurrency: 1.5 })).toThrow(/concurrency/);
  });
});
