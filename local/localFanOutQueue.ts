import { createChannelFanoutHandler } from '../functions/handlers/channel-fanout';
import type { LinkMinter } from '../functions/links/linkMinter';
import type { ChannelJob, FanOutQueueMessage } from '../functions/messages/channelJob';
import type { MessageQueue } from '../functions/queue/messageQueue';
import { FANOUT_BATCH_SIZE, FANOUT_QUEUE } from '../functions/services/notify/fanOutQueueSettings';
import type { Counters, Log } from '../functions/shared/observability';
import { CachedChannelList } from '../functions/store/cachedChannelList';
import type { Repositories } from '../functions/store/repositories';
import { InProcessQueue, type QueueClock } from './queue/inProcessQueue';
import type { QueueJournal } from './queue/queueJournal';
import { deployedRedelivery } from './queue/deployedRedelivery';

export interface LocalFanOutQueueOptions {
  readonly repos: Repositories;
  /** Where the fan-out queues each channel's job: the process's channel queue. */
  readonly channelQueue: MessageQueue<ChannelJob>;
  readonly links: Pick<LinkMinter, 'build'>;
  /** How long the fan-out keeps the channel list it read (`CHANNEL_LIST_CACHE_SECONDS`); default 5 s. */
  readonly channelListCacheMs?: number;
  readonly log: Log;
  readonly counters: Counters;
  readonly now: () => number;
  readonly clock?: QueueClock;
  readonly visibilityTimeoutMs?: number;
  /** Keeps the queue's messages across restarts (`npm start`, `serve`); default memory only. */
  readonly journal?: QueueJournal;
}

/**
 * The fan-out queue of one local process, consumed by the deployed fan-out handler
 * (`createChannelFanoutHandler`): each published notify event, and each report's chat notice, is
 * expanded into one job per channel taking it, queued on `channelQueue`.
 */
export function createLocalFanOutQueue(options: LocalFanOutQueueOptions): InProcessQueue<FanOutQueueMessage> {
  return new InProcessQueue<FanOutQueueMessage>({
    name: 'sentinel-fanout',
    consumer: createChannelFanoutHandler({
      repos: options.repos,
      channels: new CachedChannelList(options.repos.channels, options.channelListCacheMs ?? 5_000, options.now),
      alerts: options.repos.alerts,
      channelQueue: options.channelQueue,
      links: options.links,
      log: options.log,
      counters: options.counters,
      now: options.now,
    }),
    batchSize: FANOUT_BATCH_SIZE,
    // A failed event is retried sooner than in AWS (as the other local queues); the receive limit and timeout are the deployed ones.
    visibilityTimeoutMs: options.visibilityTimeoutMs ?? 30_000,
    ...deployedRedelivery(FANOUT_QUEUE, options),
  });
}
