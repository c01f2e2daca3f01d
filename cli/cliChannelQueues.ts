import type { LinkMinter } from '../functions/links/linkMinter';
import type { NotifyQueueEvent } from '../functions/messages/notifyMessage';
import type { MessageQueue } from '../functions/queue/messageQueue';
import { channelSenderFrom } from '../functions/runtime/channelSenderFrom';
import type { Counters } from '../functions/shared/observability';
import { createLocalChannelQueues, type LocalChannelQueues } from '../local/localChannelQueue';
import type { CliRuntime } from './cliRuntime';

/**
 * The channel side of a one-shot command (`collect`, `report`): the fan-out queue and the channel
 * queue, consumed in this process by the fan-out and the channel worker with the settings' secrets,
 * API bases and URL policy; the command drains both before it exits, in rounds with `notifyQueue`,
 * where a channel the worker marks broken is announced.
 */
export function cliChannelQueues(
  rt: CliRuntime,
  links: Pick<LinkMinter, 'build'>,
  counters: Counters,
  notifyQueue: MessageQueue<NotifyQueueEvent>,
): LocalChannelQueues {
  return createLocalChannelQueues({
    repos: rt.repos,
    channelSender: channelSenderFrom(rt.settings, rt.channelEnv),
    notifyQueue,
    links,
    log: rt.log,
    counters,
    now: () => rt.now(),
    visibilityTimeoutMs: 1_000,
  });
}
