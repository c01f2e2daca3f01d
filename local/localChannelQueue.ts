import type { ChannelSenderDeps } from '../functions/channels/channelSender';
import { DestinationPacer } from '../functions/domain/destinationPacer';
import { createChannelWorkerHandler } from '../functions/handlers/channel-worker';
import { CHANNEL_BATCH_SIZE, CHANNEL_QUEUE } from '../functions/services/channels/channelQueueSettings';
import type { LinkMinter } from '../functions/links/linkMinter';
import type { ChannelQueueMessage, FanOutEvent, FanOutQueueMessage } from '../functions/messages/channelJob';
import type { NotifyQueueEvent } from '../functions/messages/notifyMessage';
import type { MessageQueue } from '../functions/queue/messageQueue';
import type { DestinationSlots } from '../functions/services/channels/destinationSlots';
import type { Counters, Log } from '../functions/shared/observability';
import type { Repositories } from '../functions/store/repositories';
import { createLocalFanOutQueue } from './localFanOutQueue';
import { InProcessQueue, type QueueClock, type SqsLambdaHandler } from './queue/inProcessQueue';
import type { QueueJournal } from './queue/queueJournal';
import { deployedRedelivery } from './queue/deployedRedelivery';

export interface LocalChannelQueueOptions {
  readonly repos: Repositories;
  readonly channelSender: ChannelSenderDeps;
  /** Where a channel the worker marks broken is announced: the process's notify queue, whose consumer emails it. */
  readonly notifyQueue: MessageQueue<NotifyQueueEvent>;
  /** Where a `fanout` job found on the channel queue (one journaled by an older version) is passed on: the process's fan-out queue. */
  readonly fanOutQueue: MessageQueue<FanOutEvent>;
  readonly log: Log;
  readonly counters: Counters;
  readonly now: () => number;
  readonly clock?: QueueClock;
  readonly visibilityTimeoutMs?: number;
  /** The worker's send slots; default the process's own `DestinationPacer` (one instance). */
  readonly pacer?: DestinationSlots;
  /**
   * One worker instance per entry, each with these send slots (e.g. a `SharedDestinationPacer`
   * each, as deployed instances): a batch goes to an instance with none in flight. Overrides `pacer`.
   */
  readonly instancePacers?: readonly DestinationSlots[];
  /** Keeps the queue's messages across restarts (`npm start`, `serve`); default memory only. */
  readonly journal?: QueueJournal;
}

/**
 * The channel queue of one local process, consumed by the channel worker (`createChannelWorkerHandler`): a
 * re-queued job (429, pacing) waits out its delay in the queue, as with SQS `DelaySeconds`. The
 * pacer is the process's own (one worker instance) unless one is given, or one per instance.
 */
function createLocalChannelQueue(options: LocalChannelQueueOptions): InProcessQueue<ChannelQueueMessage> {
  const workers: SqsLambdaHandler[] = [];
  const idle: SqsLambdaHandler[] = [];
  const queue: InProcessQueue<ChannelQueueMessage> = new InProcessQueue<ChannelQueueMessage>({
    name: 'sentinel-channel',
    consumer: async (event, context) => {
      const worker = idle.shift();
      if (!worker) return workers[0]!(event, context);
      try {
        return await worker(event, context);
      } finally {
        idle.push(worker);
      }
    },
    batchSize: CHANNEL_BATCH_SIZE,
    // A failed job is retried sooner than in AWS (as collect and notify are locally); the receive limit and timeout are the deployed ones.
    visibilityTimeoutMs: options.visibilityTimeoutMs ?? 30_000,
    ...deployedRedelivery(CHANNEL_QUEUE, options),
  });
  for (const pacer of options.instancePacers ?? [options.pacer ?? new DestinationPacer()]) {
    workers.push(
      createChannelWorkerHandler({
        repos: options.repos,
        channelSender: options.channelSender,
        channelQueue: queue,
        pacer,
        notifyQueue: options.notifyQueue,
        log: options.log,
        counters: options.counters,
        now: options.now,
        wallNow: options.clock ? () => options.clock!.now() : Date.now,
        fanOutQueue: options.fanOutQueue,
      }),
    );
  }
  idle.push(...workers);
  return queue;
}

export interface LocalChannelQueuesOptions extends Omit<LocalChannelQueueOptions, 'fanOutQueue' | 'journal'> {
  readonly links: Pick<LinkMinter, 'build'>;
  /** How long the fan-out keeps the channel list it read (`CHANNEL_LIST_CACHE_SECONDS`); default 5 s. */
  readonly channelListCacheMs?: number;
  /** Keeps each queue's messages across restarts, by queue name (`npm start`, `serve`); default memory only. */
  readonly journalFor?: (queue: string) => QueueJournal;
}

/** The channel side of one local process: the fan-out queue (`channel-fanout`) and the channel queue (the channel worker) it queues jobs on. */
export interface LocalChannelQueues {
  /** Where producers publish each notify event's `fanout` job (`notifyPublisher`) and the report worker each report's chat notice. */
  readonly fanOutQueue: InProcessQueue<FanOutQueueMessage>;
  readonly channelQueue: InProcessQueue<ChannelQueueMessage>;
}

/**
 * Both queues of the channel side, bound to each other as deployed: the fan-out queues its jobs on
 * the channel queue, whose worker passes a stray `fanout` job back to the fan-out queue. Deliver
 * the fan-out queue before the channel queue (`drainInRounds`).
 */
export function createLocalChannelQueues(options: LocalChannelQueuesOptions): LocalChannelQueues {
  const { links, channelListCacheMs, journalFor, ...channel } = options;
  const channelQueue = createLocalChannelQueue({
    ...channel,
    // Bound late: the fan-out queue is built on this channel queue.
    fanOutQueue: { send: (entries) => fanOutQueue.send(entries) },
    ...(journalFor ? { journal: journalFor('sentinel-channel') } : {}),
  });
  const fanOutQueue = createLocalFanOutQueue({
    repos: options.repos,
    channelQueue,
    links,
    ...(channelListCacheMs === undefined ? {} : { channelListCacheMs }),
    log: options.log,
    counters: options.counters,
    now: options.now,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.visibilityTimeoutMs === undefined ? {} : { visibilityTimeoutMs: options.visibilityTimeoutMs }),
    ...(journalFor ? { journal: journalFor('sentinel-fanout') } : {}),
  });
  return { fanOutQueue, channelQueue };
}
