import type { LinkMinter } from '../functions/links/linkMinter';
import type { ChannelJob } from '../functions/messages/channelJob';
import type { NotifyQueueEvent } from '../functions/messages/notifyMessage';
import type { MessageQueue } from '../functions/queue/messageQueue';
import { channelSenderFrom } from '../functions/runtime/channelSenderFrom';
import type { Counters } from '../functions/shared/observability';
import { createLocalChannelQueue } from '../local/localChannelQueue';
import type { InProcessQueue } from '../local/queue/inProcessQueue';
import type { CliRuntime } from './cliRuntime';

/**
 * The channel queue of a one-shot command (`collect`, `report`), consumed in this process by the
 * channel worker with the settings' secrets, API bases and URL policy; the command drains it before
 * it exits, in rounds with `notifyQueue`, where a channel the worker marks broken is announced.
 */
export function cliChannelQueue(
  rt: CliRuntime,
  links: Pick<LinkMinter, 'build'>,
  counters: Counters,
  notifyQueue: MessageQueue<NotifyQueueEvent>,
): InProcessQueue<ChannelJob> {
  return createLocalChannelQueue({
    repos: rt.repos,
    channelSender: channelSenderFrom(rt.settings),
    notifyQueue,
    links,
    log: rt.log,
    counters,
    now: () => rt.now(),
    visibilityTimeoutMs: 1_000,
  });
}
