import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleepTimer } from 'node:timers/promises';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from 'zod';
import { validateEntries, type MessageQueue, type QueueEntry, type SendResult } from '../../functions/queue/messageQueue';
import type { MessageVisibility, ReceivedMessage } from '../../functions/queue/messageVisibility';
import { lambdaContext } from '../lambdaContext';
import { describeError } from '../../functions/shared/describeError';
import type { RecordScope } from '../../functions/runtime/consumer/sqsConsumer';
import type { JournalEntry, QueueJournal } from './queueJournal';

/** A Lambda handler for SQS events, as deployed (partial batch responses enabled). */
export type SqsLambdaHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

/** Time source; tests inject one whose `sleep` advances a fake clock. */
export interface QueueClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Runs a consumer call; a simulated clock stays still while it works (not while it sleeps). */
  hold?<T>(work: () => Promise<T>): Promise<T>;
  /**
   * A sleep that `signal` calls off (resolving at once, and no longer counted as a sleeper). With
   * it, a poller idle beside a long batch wakes when a delayed or timed-out message becomes
   * visible; without it, when a batch finishes or a message is sent.
   */
  sleepUnless?(ms: number, signal: AbortSignal): Promise<void>;
}

/**
 * The consumer option that holds `clock` around each record of a batch (`ConsumerDeps.recordScope`),
 * for a clock that holds; nothing otherwise.
 */
export function heldRecords(clock: QueueClock | undefined): { recordScope?: RecordScope } {
  const hold = clock?.hold?.bind(clock);
  return hold ? { recordScope: (work) => hold(work) } : {};
}

/** A message moved to the dead-letter queue. */
export interface DeadLetter {
  readonly messageId: string;
  readonly body: string;
  readonly receiveCount: number;
  readonly sentAt: number;
  readonly deadLetteredAt: number;
}

export interface InProcessQueueOptions {
  /** Queue name, used in the event source ARN. */
  readonly name: string;
  readonly consumer: SqsLambdaHandler;
  /** Records per event, 1–10 000; default 10. */
  readonly batchSize?: number;
  /** How long a received message stays hidden before it is delivered again; default 30 s. */
  readonly visibilityTimeoutMs?: number;
  /** Deliveries before a message goes to the dead-letter queue (SQS `maxReceiveCount`); default 3. */
  readonly maxReceiveCount?: number;
  /** Idle wait of the `start()` loop; default 100 ms. */
  readonly pollIntervalMs?: number;
  readonly region?: string;
  readonly clock?: QueueClock;
  /** Told about every dead-lettered message; default: one JSON line on stderr. */
  readonly onDeadLetter?: (message: DeadLetter) => void;
  /** The consumer's Lambda timeout: its context's remaining time starts from it; default 30 s. */
  readonly timeoutMs?: number;
  /** Told when the consumer throws (the whole batch then counts as failed); default: one JSON line on stderr. */
  readonly onConsumerError?: (error: unknown) => void;
  /**
   * Where every change is written, so the messages outlive the process as SQS's do (`npm start`,
   * `serve`); the queue starts with what it holds. Default none: memory only (tests, benchmarks, the CLI).
   */
  readonly journal?: QueueJournal;
}

/** How `drain()` and `start()` poll. */
export interface PollerOptions {
  /**
   * Pollers receiving and delivering batches at once, as the concurrent Lambda instances of one
   * SQS event source (`maxConcurrency`); 1–1000, default 1. A received message is hidden, so no
   * message is in two batches at once.
   */
  readonly concurrency?: number;
}

/** Counts of one `drain()`. */
export interface DrainResult {
  /** Consumer invocations. */
  readonly batches: number;
  /** Messages deleted after a successful delivery. */
  readonly processed: number;
  /** Deliveries that failed (the message stayed for redelivery). */
  readonly failedDeliveries: number;
  readonly deadLettered: number;
}

/** What one `pollOnce()` did. */
export interface PollOutcome {
  readonly received: number;
  readonly processed: number;
  readonly failed: number;
  readonly deadLettered: number;
}

interface StoredMessage {
  readonly messageId: string;
  readonly body: string;
  readonly sentAt: number;
  readonly groupId?: string;
  visibleAt: number;
  receiveCount: number;
  firstReceivedAt: number | null;
  receiptHandle: string | null;
}

const batchResponseSchema = z.object({
  batchItemFailures: z.array(z.object({ itemIdentifier: z.string().min(1) })).nullish(),
});

const realClock: QueueClock = {
  now: Date.now,
  sleep: (ms) => sleepTimer(ms).then(() => undefined),
  sleepUnless: (ms, signal) => sleepTimer(ms, undefined, { signal, ref: false }).catch(() => undefined),
};

/**
 * A local queue with SQS semantics, feeding a Lambda handler as the SQS event source mapping
 * does: at-least-once delivery in batches of `SQSEvent` records; a received message stays
 * hidden for the visibility timeout and is deleted only if its delivery succeeded (the handler
 * returned without listing it in `batchItemFailures`); a handler that throws, or returns an
 * invalid response, fails the whole batch; after `maxReceiveCount` deliveries a message goes to
 * the dead-letter queue. As `ChangeMessageVisibility`, `change` re-hides one received message
 * (named by its receipt handle) for the given seconds from now: the consumer's backoff.
 *
 * With a `journal`, every send, receive, visibility change, deletion and dead-lettering is
 * written as it happens, and a new queue on the same journal starts where the last one stopped:
 * a message received and not deleted comes back once its visibility timeout has run out, with
 * its receive count. `halt()` stops receiving and tells the batches in flight that their time is
 * up (records not yet started come back, as with a Lambda near its timeout); `close()` stops
 * writing, so work abandoned by a stopping process stays queued as it was.
 */
export class InProcessQueue<T> implements MessageQueue<T>, MessageVisibility {
  private readonly messages = new Map<string, StoredMessage>();
  private readonly dead: DeadLetter[] = [];
  private readonly clock: QueueClock;
  private readonly batchSize: number;
  private readonly visibilityTimeoutMs: number;
  private readonly maxReceiveCount: number;
  private readonly arn: string;
  private loop: Promise<void> | undefined;
  private running = false;
  /** Told when a message is sent or its visibility changed (an idle poller of `drain` looks again). */
  private readonly arrivals = new Set<() => void>();
  /** Aborted by `halt()`: the contexts of the batches in flight then have no time left. */
  private halted = new AbortController();
  private readonly journal: QueueJournal | undefined;

  constructor(private readonly options: InProcessQueueOptions) {
    this.clock = options.clock ?? realClock;
    this.batchSize = options.batchSize ?? 10;
    this.visibilityTimeoutMs = options.visibilityTimeoutMs ?? 30_000;
    this.maxReceiveCount = options.maxReceiveCount ?? 3;
    if (!(Number.isInteger(this.batchSize) && this.batchSize >= 1 && this.batchSize <= 10_000)) {
      throw new RangeError(`batchSize must be an integer from 1 to 10000, got ${this.batchSize}`);
    }
    if (!(Number.isInteger(this.maxReceiveCount) && this.maxReceiveCount >= 1)) {
      throw new RangeError(`maxReceiveCount must be a positive integer, got ${this.maxReceiveCount}`);
    }
    this.arn = `arn:aws:sqs:${options.region ?? 'us-east-1'}:000000000000:${options.name}`;
    this.journal = options.journal;
    if (this.journal) this.restore(this.journal);
  }

  private restore(journal: QueueJournal): void {
    const { messages, deadLetters, unreadableLines } = journal.restore();
    for (const { groupId, ...message } of messages) {
      this.messages.set(message.messageId, { ...message, ...(groupId === undefined ? {} : { groupId }), receiptHandle: null });
    }
    this.dead.push(...deadLetters);
    if (unreadableLines > 0) {
      console.error(
        JSON.stringify({ level: 'WARN', message: 'unreadable lines of the queue journal skipped', queue: this.options.name, lines: unreadableLines }),
      );
    }
  }

  private write(entries: readonly JournalEntry[]): void {
    this.journal?.record(entries);
  }

  private static visibility(message: StoredMessage): JournalEntry {
    return { op: 'vis', id: message.messageId, visibleAt: message.visibleAt, receiveCount: message.receiveCount, firstReceivedAt: message.firstReceivedAt };
  }

  /** The queue's name. */
  get name(): string {
    return this.options.name;
  }

  async send(entries: readonly QueueEntry<T>[]): Promise<SendResult> {
    validateEntries(entries);
    const now = this.clock.now();
    const written: JournalEntry[] = [];
    for (const entry of entries) {
      const message: StoredMessage = {
        messageId: randomUUID(),
        body: JSON.stringify(entry.body),
        sentAt: now,
        ...(entry.groupId === undefined ? {} : { groupId: entry.groupId }),
        visibleAt: now + (entry.delaySeconds ?? 0) * 1_000,
        receiveCount: 0,
        firstReceivedAt: null,
        receiptHandle: null,
      };
      this.messages.set(message.messageId, message);
      if (this.journal) {
        const { receiptHandle: _handle, ...kept } = message;
        written.push({ op: 'put', m: kept });
      }
    }
    this.write(written);
    this.announce();
    return { sent: entries.map((e) => e.id), failed: [] };
  }

  /**
   * Hides a received message for `seconds` from now, as SQS `ChangeMessageVisibility` does; a
   * receipt handle that is not the message's latest (or a message already deleted) changes nothing.
   */
  change(message: ReceivedMessage, seconds: number): Promise<void> {
    if (!(Number.isInteger(seconds) && seconds >= 0 && seconds <= 43_200)) throw new RangeError(`visibility must be 0 to 43200 s, got ${seconds}`);
    for (const stored of this.messages.values()) {
      if (stored.receiptHandle !== message.receiptHandle) continue;
      stored.visibleAt = this.clock.now() + seconds * 1_000;
      this.write([InProcessQueue.visibility(stored)]);
    }
    this.announce();
    return Promise.resolve();
  }

  /** How it redelivers: the visibility timeout and the receives before dead-lettering. */
  redelivery(): { visibilityTimeoutMs: number; maxReceiveCount: number } {
    return { visibilityTimeoutMs: this.visibilityTimeoutMs, maxReceiveCount: this.maxReceiveCount };
  }

  /** Messages waiting (visible now), in flight or delayed (hidden), and dead-lettered. */
  counts(): { visible: number; hidden: number; deadLettered: number } {
    const now = this.clock.now();
    let visible = 0;
    for (const message of this.messages.values()) if (message.visibleAt <= now) visible++;
    return { visible, hidden: this.messages.size - visible, deadLettered: this.dead.length };
  }

  /** Age of the oldest message still in the queue (SQS `ApproximateAgeOfOldestMessage`), ms; 0 when empty. */
  oldestAgeMs(): number {
    let oldest = Number.POSITIVE_INFINITY;
    for (const message of this.messages.values()) oldest = Math.min(oldest, message.sentAt);
    return Number.isFinite(oldest) ? this.clock.now() - oldest : 0;
  }

  /** The dead-letter queue's contents, oldest first. */
  deadLetters(): readonly DeadLetter[] {
    return [...this.dead];
  }

  /**
   * Delivers until the queue is empty, waiting out visibility timeouts and delays so that
   * failed messages are retried until they succeed or are dead-lettered. With `concurrency` N,
   * up to N batches are in flight; while one is, an idle poller receives again as soon as a
   * message is sent, a batch finishes or (with a clock that has `sleepUnless`) a delayed or
   * timed-out message becomes visible, as the event source's pollers do beside a long invocation.
   */
  async drain(options: PollerOptions = {}): Promise<DrainResult> {
    const concurrency = pollerCount(options);
    const totals = { batches: 0, processed: 0, failedDeliveries: 0, deadLettered: 0 };
    const inFlight = new Set<Promise<void>>();
    for (;;) {
      while (inFlight.size < concurrency) {
        const { batch, deadLettered } = this.receive();
        totals.deadLettered += deadLettered;
        if (batch.length === 0) break;
        totals.batches++;
        const delivery: Promise<void> = this.deliver(batch)
          .then((outcome) => {
            totals.processed += outcome.processed;
            totals.failedDeliveries += outcome.failed;
          })
          .finally(() => inFlight.delete(delivery));
        inFlight.add(delivery);
      }
      if (inFlight.size >= concurrency) {
        await Promise.race(inFlight);
        continue;
      }
      if (inFlight.size > 0) {
        await this.untilReceivable(inFlight);
        continue;
      }
      if (this.messages.size === 0) return totals;
      const next = Math.min(...[...this.messages.values()].map((m) => m.visibleAt));
      await this.clock.sleep(Math.max(1, next - this.clock.now()));
    }
  }

  /** Waits for a batch of `inFlight` to finish, a message to be sent or to change visibility, or the next one to become visible. */
  private async untilReceivable(inFlight: ReadonlySet<Promise<void>>): Promise<void> {
    const calledOff = new AbortController();
    let arrived: () => void = () => undefined;
    const waits: Promise<unknown>[] = [...inFlight, new Promise<void>((resolve) => (arrived = resolve))];
    this.arrivals.add(arrived);
    const next = Math.min(...[...this.messages.values()].map((m) => m.visibleAt));
    if (this.clock.sleepUnless && Number.isFinite(next)) waits.push(this.clock.sleepUnless(Math.max(1, next - this.clock.now()), calledOff.signal));
    try {
      await Promise.race(waits);
    } finally {
      this.arrivals.delete(arrived);
      calledOff.abort();
    }
  }

  private announce(): void {
    const waiting = [...this.arrivals];
    this.arrivals.clear();
    for (const resolve of waiting) resolve();
  }

  /**
   * Keeps delivering in the background with `concurrency` pollers, each polling every
   * `pollIntervalMs` when idle.
   */
  start(options: PollerOptions = {}): void {
    const concurrency = pollerCount(options);
    if (this.running) return;
    this.running = true;
    this.halted = new AbortController();
    const poller = async (): Promise<void> => {
      while (this.running) {
        const outcome = await this.pollOnce();
        if (!outcome || outcome.received === 0) await this.clock.sleep(this.options.pollIntervalMs ?? 100);
      }
    };
    this.loop = Promise.all(Array.from({ length: concurrency }, poller)).then(() => undefined);
  }

  /**
   * Stops receiving: the background pollers end after their current batch, and the batches in
   * flight are told their time is up (their records not yet started fail and stay queued).
   */
  halt(): void {
    this.running = false;
    this.halted.abort();
  }

  /** Stops the background pollers; resolves once the batches in flight have finished. */
  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    this.loop = undefined;
  }

  /** Stops writing the journal: from now on changes stay in this process (see the class). */
  close(): void {
    this.journal?.close();
  }

  /**
   * Receives one batch of visible messages and delivers it (what one poll of the Lambda event
   * source mapping does); undefined when there was nothing to receive or dead-letter.
   */
  async pollOnce(): Promise<PollOutcome | undefined> {
    const { batch, deadLettered } = this.receive();
    if (batch.length === 0) return deadLettered > 0 ? { received: 0, processed: 0, failed: 0, deadLettered } : undefined;
    return { ...(await this.deliver(batch)), deadLettered };
  }

  /** Delivers one received batch; deletes the messages whose delivery succeeded. */
  private async deliver(batch: readonly StoredMessage[]): Promise<Omit<PollOutcome, 'deadLettered'>> {
    const handles = new Map(batch.map((m) => [m.messageId, m.receiptHandle]));
    const failedIds = await this.invoke(batch.map((m) => this.record(m)));
    let processed = 0;
    const deleted: JournalEntry[] = [];
    for (const [messageId, handle] of handles) {
      if (failedIds.has(messageId)) continue;
      // Delete only if it was not received again meanwhile (its visibility timeout ran out).
      if (this.messages.get(messageId)?.receiptHandle === handle) {
        this.messages.delete(messageId);
        deleted.push({ op: 'del', id: messageId });
      }
      processed++;
    }
    this.write(deleted);
    return { received: batch.length, processed, failed: failedIds.size };
  }

  private receive(): { batch: StoredMessage[]; deadLettered: number } {
    const now = this.clock.now();
    const batch: StoredMessage[] = [];
    let deadLettered = 0;
    const visible = [...this.messages.values()].filter((m) => m.visibleAt <= now).sort((a, b) => a.visibleAt - b.visibleAt);
    const written: JournalEntry[] = [];
    for (const message of visible) {
      if (batch.length >= this.batchSize) break;
      if (message.receiveCount >= this.maxReceiveCount) {
        this.messages.delete(message.messageId);
        const letter = { messageId: message.messageId, body: message.body, receiveCount: message.receiveCount, sentAt: message.sentAt, deadLetteredAt: now };
        this.dead.push(letter);
        written.push({ op: 'dead', letter });
        deadLettered++;
        (this.options.onDeadLetter ?? logDeadLetter(this.options.name))(letter);
        continue;
      }
      message.receiveCount++;
      message.firstReceivedAt ??= now;
      message.visibleAt = now + this.visibilityTimeoutMs;
      message.receiptHandle = randomUUID();
      batch.push(message);
      if (this.journal) written.push(InProcessQueue.visibility(message));
    }
    this.write(written);
    return { batch, deadLettered };
  }

  /** Calls the consumer; returns the ids of the records whose delivery failed. */
  private async invoke(records: SQSRecord[]): Promise<Set<string>> {
    const all = new Set(records.map((r) => r.messageId));
    let response: unknown;
    try {
      const context = lambdaContext(`${this.options.name}-consumer`, this.options.timeoutMs, this.halted.signal);
      const call = () => this.options.consumer({ Records: records }, context);
      response = await (this.clock.hold ? this.clock.hold(call) : call());
    } catch (error) {
      (this.options.onConsumerError ?? logConsumerError(this.options.name))(error);
      return all;
    }
    if (response === undefined || response === null) return new Set();
    const parsed = batchResponseSchema.safeParse(response);
    if (!parsed.success) return all;
    const failures = parsed.data.batchItemFailures ?? [];
    // As in Lambda: an identifier that names no record of the batch fails the whole batch.
    if (failures.some((f) => !all.has(f.itemIdentifier))) return all;
    return new Set(failures.map((f) => f.itemIdentifier));
  }

  private record(message: StoredMessage): SQSRecord {
    return {
      messageId: message.messageId,
      receiptHandle: message.receiptHandle ?? '',
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(message.receiveCount),
        SentTimestamp: String(message.sentAt),
        SenderId: 'LOCAL',
        ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt ?? message.sentAt),
        ...(message.groupId === undefined ? {} : { MessageGroupId: message.groupId }),
      },
      messageAttributes: {},
      md5OfBody: createHash('md5').update(message.body).digest('hex'),
      eventSource: 'aws:sqs',
      eventSourceARN: this.arn,
      awsRegion: this.options.region ?? 'us-east-1',
    };
  }
}

function pollerCount(options: PollerOptions): number {
  const concurrency = options.concurrency ?? 1;
  if (!(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 1_000)) {
    throw new RangeError(`concurrency must be an integer from 1 to 1000, got ${concurrency}`);
  }
  return concurrency;
}

function logDeadLetter(queue: string): (message: DeadLetter) => void {
  return (message) =>
    console.error(
      JSON.stringify({
        level: 'WARN',
        message: 'message moved to the dead-letter queue',
        queue,
        messageId: message.messageId,
        receiveCount: message.receiveCount,
      }),
    );
}

function logConsumerError(queue: string): (error: unknown) => void {
  return (error) =>
    console.error(JSON.stringify({ level: 'ERROR', message: 'queue consumer failed', queue, error: describeError(error, { audience: 'log' }) }));
}
