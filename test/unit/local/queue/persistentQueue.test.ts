import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { sqsConsumer } from '../../../../functions/runtime/consumer/sqsConsumer';
import { silentLog } from '../../../../functions/shared/observability';
import { InProcessQueue, type QueueClock, type SqsLambdaHandler } from '../../../../local/queue/inProcessQueue';
import { openQueueFolder } from '../../../../local/queue/queueFolder';
import { FileQueueJournal } from '../../../../local/queue/queueJournal';

interface Job {
  n: number;
}

function fakeClock(start = 1_000_000): QueueClock & { advance(ms: number): void } {
  let now = start;
  return { now: () => now, sleep: async (ms) => void (now += ms), advance: (ms) => void (now += ms) };
}

const jobs = (count: number, from = 0) => Array.from({ length: count }, (_, i) => ({ id: `job-${from + i}`, body: { n: from + i } }));
const quiet = { onDeadLetter: () => {}, onConsumerError: () => {} };
const journalFile = () => join(mkdtempSync(join(tmpdir(), 'queue-journal-')), 'q.jsonl');

/** Records what it was given; fails the records whose number `fail` names. */
function recorder(fail: (n: number) => boolean = () => false) {
  const seen: { n: number; receiveCount: number }[] = [];
  const consumer: SqsLambdaHandler = async (event) => {
    for (const r of event.Records) seen.push({ n: (JSON.parse(r.body) as Job).n, receiveCount: Number(r.attributes.ApproximateReceiveCount) });
    return { batchItemFailures: event.Records.filter((r) => fail((JSON.parse(r.body) as Job).n)).map((r) => ({ itemIdentifier: r.messageId })) };
  };
  return { consumer, seen };
}

describe('InProcessQueue with a journal (its messages outlive the process)', () => {
  it('a new queue on the same journal holds what the last one left: waiting, delayed, in flight (back after its visibility timeout, receive count kept) and dead letters; nothing deleted comes back', async () => {
    const file = journalFile();
    const clock = fakeClock();
    const first = recorder((n) => n === 1 || n === 2);
    const before = new InProcessQueue<Job>({
      name: 'q',
      consumer: first.consumer,
      clock,
      batchSize: 3,
      visibilityTimeoutMs: 10_000,
      maxReceiveCount: 2,
      journal: new FileQueueJournal(file),
      ...quiet,
    });
    await before.send(jobs(3));
    await before.pollOnce(); // 0 delivered; 1 and 2 failed (hidden 10 s, received once)
    clock.advance(10_000);
    await before.pollOnce(); // 1 and 2 failed again: received twice
    clock.advance(10_000);
    await before.pollOnce(); // past maxReceiveCount: both dead-lettered
    await before.send([
      { id: 'later', body: { n: 3 } },
      { id: 'delayed', body: { n: 4 }, delaySeconds: 60 },
    ]);
    await before.send(jobs(1, 5));
    // Take 3 into flight and "crash" (nothing deleted, the visibility timeout running).
    const crashing = new InProcessQueue<Job>({
      name: 'q',
      consumer: () => new Promise(() => undefined),
      clock,
      batchSize: 1,
      visibilityTimeoutMs: 10_000,
      journal: new FileQueueJournal(file),
      ...quiet,
    });
    void crashing.pollOnce();

    const after = recorder();
    const restarted = new InProcessQueue<Job>({
      name: 'q',
      consumer: after.consumer,
      clock,
      visibilityTimeoutMs: 10_000,
      journal: new FileQueueJournal(file),
      ...quiet,
    });
    expect(restarted.deadLetters().map((d) => d.body)).toEqual(['{"n":1}', '{"n":2}']);
    expect(restarted.counts()).toEqual({ visible: 1, hidden: 2, deadLettered: 2 });
    await restarted.pollOnce();
    expect(after.seen).toEqual([{ n: 5, receiveCount: 1 }]);
    clock.advance(10_000);
    await restarted.pollOnce();
    expect(after.seen.at(-1), 'the message in flight when the process stopped comes back, counted').toEqual({ n: 3, receiveCount: 2 });
    clock.advance(50_000);
    await restarted.drain();
    expect(after.seen.map((s) => s.n)).toEqual([5, 3, 4]);
    expect(restarted.counts()).toEqual({ visible: 0, hidden: 0, deadLettered: 2 });

    const again = new InProcessQueue<Job>({ name: 'q', consumer: after.consumer, clock, journal: new FileQueueJournal(file), ...quiet });
    expect(again.counts(), 'nothing delivered comes back').toEqual({ visible: 0, hidden: 0, deadLettered: 2 });
  });

  it('skips a line cut short by a kill (and says so), keeping the lines before it', async () => {
    const file = journalFile();
    const clock = fakeClock();
    const queue = new InProcessQueue<Job>({ name: 'q', consumer: async () => undefined, clock, journal: new FileQueueJournal(file) });
    await queue.send(jobs(2));
    appendFileSync(file, '{"op":"put","m":{"messageId":"x","bo');
    const restored = new FileQueueJournal(file).restore();
    expect(restored.messages.map((m) => JSON.parse(m.body) as Job)).toEqual([{ n: 0 }, { n: 1 }]);
    expect(restored.unreadableLines).toBe(1);
    expect(readFileSync(file, 'utf8'), 'compacted on opening: the torn line is gone').not.toContain('"bo\n');
  });

  it('after close(), changes stay in memory: work finishing late in a stopping process leaves its message queued for the next start', async () => {
    const file = journalFile();
    const clock = fakeClock();
    let finish: () => void = () => undefined;
    const queue = new InProcessQueue<Job>({
      name: 'q',
      consumer: () => new Promise((resolve) => (finish = () => resolve(undefined))),
      clock,
      journal: new FileQueueJournal(file),
    });
    await queue.send(jobs(1));
    const polled = queue.pollOnce();
    queue.close();
    finish();
    await polled;
    expect(queue.counts().hidden + queue.counts().visible).toBe(0);
    expect(new FileQueueJournal(file).restore().messages).toHaveLength(1);
  });

  it('halt() stops taking work: the records of a batch in flight not yet started fail and stay queued; the one under way finishes', async () => {
    const clock = fakeClock();
    const handled: number[] = [];
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const firstStarted = new Promise<void>((resolve) => (started = resolve));
    const consumer = sqsConsumer(
      { log: silentLog, counters: { count: () => undefined } },
      {
        name: 'job',
        schema: z.object({ n: z.number() }),
        concurrency: 1,
        about: (job) => ({ n: job.n }),
        handle: async (job) => {
          if (job.n === 0) {
            started();
            await new Promise<void>((resolve) => (release = resolve));
          }
          handled.push(job.n);
        },
        retry: { metric: 'Retries', level: 'warn', message: 'retry' },
      },
    );
    const queue = new InProcessQueue<Job>({ name: 'q', consumer, clock, batchSize: 3, visibilityTimeoutMs: 5_000, ...quiet });
    await queue.send(jobs(3));
    const polled = queue.pollOnce();
    await firstStarted;
    queue.halt();
    release();
    expect(await polled).toMatchObject({ received: 3, processed: 1, failed: 2 });
    expect(handled).toEqual([0]);
    expect(queue.counts()).toEqual({ visible: 0, hidden: 2, deadLettered: 0 });
  });
});

describe('openQueueFolder', () => {
  it('refuses a folder another live process holds, naming it; takes over one whose holder is gone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'queue-folder-'));
    writeFileSync(join(dir, 'lock'), `${process.ppid}\n`);
    expect(() => openQueueFolder(dir)).toThrow(new RegExp(`in use by process ${process.ppid}`));
    writeFileSync(join(dir, 'lock'), '2147483646\n');
    const folder = openQueueFolder(dir);
    expect(readFileSync(join(dir, 'lock'), 'utf8').trim()).toBe(String(process.pid));
    folder.close();
    expect(() => readFileSync(join(dir, 'lock'))).toThrow();
  });
});
