import { afterAll, beforeAll, expect } from 'vitest';
import type { ChannelSenderDeps } from '../../../functions/channels/channelSender';
import type { ChannelRecord } from '../../../functions/domain/channel';
import type { Notice } from '../../../functions/domain/notice';
import type { MailSender } from '../../../functions/mail/send/sesSender';
import { channelJobSchema, type ChannelJob, type ChannelQueueMessage, type FanOutQueueMessage } from '../../../functions/messages/channelJob';
import type { NotifyQueueEvent } from '../../../functions/messages/notifyMessage';
import type { MessageQueue } from '../../../functions/queue/messageQueue';
import type { DestinationSlots } from '../../../functions/services/channels/destinationSlots';
import { memoryCounters, silentLog, type Counters, type Log } from '../../../functions/shared/observability';
import { createRepositories, type Repositories } from '../../../functions/store/repositories';
import { createLocalChannelQueues } from '../../../local/localChannelQueue';
import type { InProcessQueue } from '../../../local/queue/inProcessQueue';
import { drainInRounds } from '../../../local/queue/drainInRounds';
import { createLocalNotifyQueue } from '../../../local/localNotifyQueue';
import { createNotifyHandler } from '../../../functions/handlers/notify';
import { startChatReceivers, type ChatReceivers, type Received } from '../../../local/receivers/chatReceivers';
import { VirtualClock } from '../../../local/virtualClock';
import { MAIL_FROM, sharedRenderer, testLinks } from '../delivery/mailHarness';
import { testTables, type TestTables } from '../testTables';
import { channelRecordOf } from './channelRecordFixture';
import { receiverSenderDeps } from './receiverSenderDeps';

export interface ChannelWorldOptions {
  /** Start of a simulated clock: the queue's delays, the worker's waits and the receivers' windows run on it. Default: the real clock. */
  readonly start?: number;
  /** Channel secrets by variable (`env:<name>`), before the receivers start; more may be added to `env` later. */
  readonly env?: Readonly<Record<string, string>>;
}

export interface ChannelWorkerOptions {
  /** Default: a fresh `memoryCounters()`. */
  readonly counters?: Counters;
  /** Default: `silentLog`. */
  readonly log?: Log;
  /**
   * Sends the broken-channel emails, from the worker's notify queue consumed by the real notify
   * handler (`world.drain` delivers it); default one that fails the email (no email expected).
   */
  readonly sender?: MailSender;
  /** The worker's send slots; default its own in-process pacer. */
  readonly pacer?: DestinationSlots;
  /** How the worker reaches destinations; default `world.senderDeps()`. */
  readonly channelSender?: ChannelSenderDeps;
  /** The worker's repositories; default `world.repos()` (e.g. one store write failing, for its error path). */
  readonly repos?: Repositories;
  /** What the worker sends its notify queue through, around the real one (e.g. a send failing, for its error path); default the queue itself. */
  readonly notifyQueue?: (queue: MessageQueue<NotifyQueueEvent>) => MessageQueue<NotifyQueueEvent>;
}

const NO_EMAIL: MailSender = { send: () => Promise.reject(new Error('no email expected')) };

/**
 * The channel worker's world for one test file (call at the top of a file or `describe`): this
 * file's tables in DynamoDB Local, the local receivers enforcing each API's rules, secrets from
 * `env`, and the clock (simulated from `start`, or real). `worker()` builds a channel queue
 * consumed by the real channel worker, as `npm start` runs it.
 */
export function channelWorld(options: ChannelWorldOptions = {}) {
  const tables: TestTables = testTables();
  const env: Record<string, string> = { ...options.env };
  let receivers: ChatReceivers | undefined;
  const clock = options.start === undefined ? null : new VirtualClock(options.start);
  const now = (): number => (clock ? clock.now() : Date.now());
  // Each worker's notify queue, where it announces a channel it marked broken.
  /** The other queues of each `worker()`: its fan-out queue and its notify queue. */
  const companions = new WeakMap<InProcessQueue<ChannelQueueMessage>, readonly [InProcessQueue<FanOutQueueMessage>, InProcessQueue<NotifyQueueEvent>]>();

  beforeAll(async () => {
    receivers = await startChatReceivers(clock ? { now } : {});
  });
  afterAll(async () => {
    await receivers?.stop();
  });

  const world = {
    tables,
    env,
    now,
    /** The simulated clock; throws for a world on the real clock. */
    get clock(): VirtualClock {
      if (!clock) throw new Error('this channel world runs on the real clock');
      return clock;
    },
    get receivers(): ChatReceivers {
      if (!receivers) throw new Error('the receivers start before the tests');
      return receivers;
    },
    /** Repositories over this file's tables, on the world's clock. */
    repos: (): Repositories => createRepositories(tables.client, tables.prefix, clock ? { now } : {}),
    /** How the worker reaches the receivers: secrets from `env`, the receivers' API bases, loopback allowed. */
    senderDeps: (): ChannelSenderDeps => receiverSenderDeps(world.receivers, env),
    /** Stores a channel (`channelRecordOf`, created now) and checks it was created. */
    async channel(record: Parameters<typeof channelRecordOf>[0]): Promise<ChannelRecord> {
      const stored = channelRecordOf(record, now());
      expect(await world.repos().channels.create(stored)).toEqual({ kind: 'created' });
      return stored;
    },
    /**
     * A channel queue consumed by the real channel worker (one instance), with its own fan-out
     * queue (the real fan-out) and notify queue consumed by the real notify handler (the
     * broken-channel emails, sent with `o.sender`).
     */
    worker(o: ChannelWorkerOptions = {}): InProcessQueue<ChannelQueueMessage> {
      const repos = o.repos ?? world.repos();
      const links = testLinks();
      const log = o.log ?? silentLog;
      const counters = o.counters ?? memoryCounters();
      const mail = { repos, sender: o.sender ?? NO_EMAIL, mailFrom: MAIL_FROM, renderer: sharedRenderer(), links, log, counters, now };
      const notifyQueue = createLocalNotifyQueue({ consumer: createNotifyHandler(mail), ...(clock ? { clock } : {}) });
      const { channelQueue: queue, fanOutQueue } = createLocalChannelQueues({
        repos,
        channelSender: o.channelSender ?? world.senderDeps(),
        notifyQueue: o.notifyQueue ? o.notifyQueue(notifyQueue) : notifyQueue,
        links,
        log,
        counters,
        now,
        ...(clock ? { clock } : {}),
        ...(o.pacer ? { pacer: o.pacer } : {}),
      });
      companions.set(queue, [fanOutQueue, notifyQueue]);
      return queue;
    },
    /** Delivers `queue` (a `worker()`), its fan-out queue and its notify queue, in rounds until all are empty, as `collect` does. */
    async drain(queue: InProcessQueue<ChannelQueueMessage>): Promise<void> {
      const [fanOutQueue, notifyQueue] = companions.get(queue) ?? [];
      if (!fanOutQueue || !notifyQueue) throw new Error("drain takes a queue of this world's worker()");
      await drainInRounds([fanOutQueue, queue, notifyQueue]);
    },
    /** The fan-out queue of `queue` (a `worker()`): what it passed a stray `fanout` job on to. */
    fanOutQueueOf(queue: InProcessQueue<ChannelQueueMessage>): InProcessQueue<FanOutQueueMessage> {
      const [fanOutQueue] = companions.get(queue) ?? [];
      if (!fanOutQueue) throw new Error("fanOutQueueOf takes a queue of this world's worker()");
      return fanOutQueue;
    },
    /** What the receivers got for `destination` (webhook path, chat, routing key), in order. */
    to: (destination: string): Received[] => world.receivers.received.filter((r) => r.destination === destination),
    /** A first attempt of `notice` to `channel`, as notify queues it. */
    job: (channel: string, notice: Notice): ChannelJob => channelJobSchema.parse({ channel, notice, attempt: 0 }),
  };
  return world;
}

/** One `channelWorld`. */
export type ChannelWorld = ReturnType<typeof channelWorld>;
