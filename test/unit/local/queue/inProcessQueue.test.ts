import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { InProcessQueue, type QueueClock, type SqsLambdaHandler } from '../../../../local/queue/inProcessQueue';
import { VirtualClock } from '../../../../local/virtualClock';

interface Job {
  n: number;
}

/** A clock that only moves when told to, or when the queue sleeps. */
function fakeClock(start = 1_000_000): QueueClock & { advance(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

/** Records every delivery; `decide` says which records of an event fail (or throws). */
function recorder(decide: (records: SQSRecord[]) => string[] | 'throw' = () => []) {
  const deliveries: { n: number; receiveCount: number; batch: number }[] = [];
  const events: SQSEvent[] = [];
  const consumer: SqsLambdaHandler = async (event): Promise<SQSBatchResponse> => {
    events.push(event);
    for (const r of event.Records) {
      deliveries.push({ n: (JSON.parse(r.body) as Job).n, receiveCount: Number(r.attributes.ApproximateReceiveCount), batch: events.length });
    }
    const failed = decide(event.Records);
    if (failed === 'throw') throw new Error('handler crashed');
    return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
  };
  return { consumer, deliveries, events };
}

const jobs = (count: number, from = 0) => Array.from({ length: count }, (_, i) => ({ id: `job-${from + i}`, body: { n: from + i } }));
const quiet = { onDeadLetter: () => {}, onConsumerError: () => {} };

describe('InProcessQueue', () => {
  it('delivers Lambda-shaped SQS records in batches of the configured size', async () => {
    const { consumer, events } = recorder();
    const queue = new InProcessQueue<Job>({ name: 'collect', consumer, batchSize: 10, clock: fakeClock(), region: 'eu-west-1' });
    await queue.send(jobs(25));
    const result = await queue.drain();
    expect(events.map((e) => e.Records.length)).toEqual([10, 10, 5]);
    expect(result).toEqual({ batches: 3, processed: 25, failedDeliveries: 0, deadLettered: 0 });
    const record = events[0]?.Records[0] as SQSRecord;
    expect(JSON.parse(record.body)).toEqual({ n: 0 });
    expect(record).toMatchObject({
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:eu-west-1:000000000000:collect',
      awsRegion: 'eu-west-1',
      md5OfBody: createHash('md5').update(record.body).digest('hex'),
      attributes: { ApproximateReceiveCount: '1', SenderId: 'LOCAL' },
    });
    expect(record.messageId).not.toBe(events[0]?.Records[1]?.messageId);
    expect(queue.counts()).toEqual({ visible: 0, hidden: 0, deadLettered: 0 });
  });

  it('redelivers the messages of a batch whose handler threw, with a higher receive count', async () => {
    let calls = 0;
    const { consumer, deliveries } = recorder(() => (++calls === 1 ? 'throw' : []));
    const queue = new InProcessQueue<Job>({ name: 'q', consumer, clock: fakeClock(), ...quiet });
    await queue.send(jobs(3));
    const result = await queue.drain();
    expect(deliveries).toEqual([
      { n: 0, receiveCount: 1, batch: 1 },
      { n: 1, receiveCount: 1, batch: 1 },
      { n: 2, receiveCount: 1, batch: 1 },
      { n: 0, receiveCount: 2, batch: 2 },
      { n: 1, receiveCount: 2, batch: 2 },
      { n: 2, receiveCount: 2, batch: 2 },
    ]);
    expect(result).toMatchObject({ processed: 3, failedDeliveries: 3, deadLettered: 0 });
  });

  it('keeps a failed message hidden for the visibility timeout, then delivers it again', async () => {
    const clock = fakeClock();
    let calls = 0;
    const { consumer, deliveries } = recorder(() => (++calls === 1 ? 'throw' : []));
    const queue = new InProcessQueue<Job>({ name: 'q', consumer, clock, visibilityTimeoutMs: 30_000, ...quiet });
    await queue.send(jobs(1));
    expect(await queue.pollOnce()).toMatchObject({ received: 1, failed: 1 });
    clock.advance(29_999);
    expect(await queue.pollOnce()).toBeUndefined();
    expect(queue.counts()).toEqual({ visible: 0, hidden: 1, deadLettered: 0 });
    clock.advance(1);
    expect(await queue.pollOnce()).toMatchObject({ received: 1, processed: 1 });
    expect(deliveries.map((d) => d.receiveCount)).toEqual([1, 2]);
    expect(queue.counts()).toEqual({ visible: 0, hidden: 0, deadLettered: 0 });
  });

  it('moves a message to the dead-letter queue after maxReceiveCount failed deliveries', async () => {
    const { consumer, deliveries } = recorder((records) => records.filter((r) => (JSON.parse(r.body) as Job).n === 1).map((r) => r.messageId));
    const deadLettered: string[] = [];
    const queue = new InProcessQueue<Job>({
      name: 'q',
      consumer,
      clock: fakeClock(),
      maxReceiveCount: 3,
      onDeadLetter: (m) => deadLettered.push(m.body),
    });
    await queue.send(jobs(3));
    const result = await queue.drain();
    expect(deliveries.filter((d) => d.n === 1).map((d) => d.receiveCount)).toEqual([1, 2, 3]);
    expect(deliveries.filter((d) => d.n !== 1)).toHaveLength(2);
    expect(result).toMatchObject({ processed: 2, failedDeliveries: 3, deadLettered: 1 });
    expect(queue.deadLetters()).toMatchObject([{ body: '{"n":1}', receiveCount: 3 }]);
    expect(deadLettered).toEqual(['{"n":1}']);
  });

  it('honours batchItemFailures: only the listed records are delivered again', async () => {
    let calls = 0;
    const { consumer, deliveries } = recorder((records) => (++calls === 1 ? records.filter((_, i) => i % 2 === 1).map((r) => r.messageId) : []));
    const queue = new InProcessQueue<Job>({ name: 'q', consumer, clock: fakeClock() });
    await queue.send(jobs(5));
    await queue.drain();
    expect(deliveries.filter((d) => d.batch === 2).map((d) => [d.n, d.receiveCount])).toEqual([
      [1, 2],
      [3, 2],
    ]);
  });

  it('fails the whole batch when a batchItemFailures identifier names no record, as Lambda does', async () => {
    let calls = 0;
    const { consumer, deliveries } = recorder(() => (++calls === 1 ? ['not-a-message-id'] : []));
    const queue = new InProcessQueue<Job>({ name: 'q', consumer, clock: fakeClock() });
    await queue.send(jobs(3));
    await queue.drain();
    expect(deliveries.filter((d) => d.batch === 2).map((d) => d.n)).toEqual([0, 1, 2]);
  });

  it('holds a delayed message back until its delay has passed', async () => {
    const clock = fakeClock();
    const { consumer, deliveries } = recorder();
    const queue = new InProcessQueue<Job>({ name: 'q', consumer, clock });
    await queue.send([{ id: 'later', body: { n: 9 }, delaySeconds: 60 }]);
    expect(await queue.pollOnce()).toBeUndefined();
    clock.advance(60_000);
    expect(await queue.pollOnce()).toMatchObject({ received: 1, processed: 1 });
    expect(deliveries.map((d) => d.n)).toEqual([9]);
    await expect(queue.send([{ id: 'bad', body: { n: 1 }, delaySeconds: 901 }])).rejects.toThrow(/delaySeconds/);
  });

  it('redelivers a message whose visibility ran out while its handler was still busy (at least once)', async () => {
    const clock = fakeClock();
    let release: () => void = () => {};
    const blocked = new Promise<void>((resolve) => {
      release = resolve;
    });
    const seen: string[] = [];
    const queue = new InProcessQueue<Job>({
      name: 'q',
      clock,
      visibilityTimeoutMs: 1_000,
      consumer: async (event) => {
        for (const r of event.Records) seen.push(r.attributes.ApproximateReceiveCount);
        if (seen.length === 1) await blocked;
      },
    });
    await queue.send(jobs(1));
    const slow = queue.pollOnce();
    clock.advance(1_000);
    expect(await queue.pollOnce()).toMatchObject({ received: 1, processed: 1 });
    release();
    await slow;
    expect(seen).toEqual(['1', '2']);
    expect(queue.counts()).toEqual({ visible: 0, hidden: 0, deadLettered: 0 });
  });

  it('runs in the background with start() until stop()', async () => {
    const { consumer, deliveries } = recorder();
    const queue = new InProcessQueue<Job>({ name: 'q', consumer, pollIntervalMs: 5 });
    queue.start();
    await queue.send(jobs(12));
    await vi.waitFor(() => expect(deliveries).toHaveLength(12), { timeout: 5_000, interval: 10 });
    await queue.stop();
    await queue.send(jobs(1, 100));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(deliveries).toHaveLength(12);
    expect(queue.counts().visible).toBe(1);
  });
});

describe('InProcessQueue beside a hung batch (simulated clock)', () => {
  const MINUTE = 60_000;

  /** A consumer whose first delivery of job 0 hangs 13 minutes on the clock; records when each delivery started. */
  function hangingConsumer(clock: VirtualClock) {
    const started: { n: number; receiveCount: number; at: number }[] = [];
    const consumer: SqsLambdaHandler = async (event) => {
      for (const r of event.Records) {
        const delivery = { n: (JSON.parse(r.body) as Job).n, receiveCount: Number(r.attributes.ApproximateReceiveCount), at: clock.now() };
        started.push(delivery);
        if (delivery.n === 0 && delivery.receiveCount === 1) await clock.sleep(13 * MINUTE);
      }
      return { batchItemFailures: [] };
    };
    return { consumer, started };
  }

  it('delivers a message sent while another batch hangs at once, not after the hang', async () => {
    const clock = new VirtualClock(0);
    const { consumer, started } = hangingConsumer(clock);
    const queue = new InProcessQueue<Job>({ name: 'report', consumer, batchSize: 1, visibilityTimeoutMs: 20 * MINUTE, clock, ...quiet });
    await queue.send(jobs(1));
    const drained = queue.drain({ concurrency: 2 });
    await clock.sleep(MINUTE);
    await queue.send(jobs(1, 1));
    await drained;
    expect(started).toEqual([
      { n: 0, receiveCount: 1, at: 0 },
      { n: 1, receiveCount: 1, at: MINUTE },
    ]);
  });

  it('redelivers a message whose visibility timeout ran out while its batch still hangs, as SQS would', async () => {
    const clock = new VirtualClock(0);
    const { consumer, started } = hangingConsumer(clock);
    const queue = new InProcessQueue<Job>({ name: 'report', consumer, batchSize: 1, visibilityTimeoutMs: 12 * MINUTE, clock, ...quiet });
    await queue.send(jobs(1));
    const result = await queue.drain({ concurrency: 2 });
    expect(started).toEqual([
      { n: 0, receiveCount: 1, at: 0 },
      { n: 0, receiveCount: 2, at: 12 * MINUTE },
    ]);
    expect(result.processed, 'both deliveries returned without failure').toBe(2);
    expect(queue.counts()).toEqual({ visible: 0, hidden: 0, deadLettered: 0 });
    expect(clock.now(), 'the hang ended before the drain did').toBe(13 * MINUTE);
  });
});
