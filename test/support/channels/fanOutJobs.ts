import type { ChannelJob, NoticeJob } from '../../../functions/messages/channelJob';
import type { NotifyMessage } from '../../../functions/messages/notifyMessage';
import type { MessageQueue } from '../../../functions/queue/messageQueue';
import type { FanOutLinks } from '../../../functions/notices/channelFanOut';
import { fanOutEvent } from '../../../functions/services/notify/fanOutEvent';
import { memoryCounters } from '../../../functions/shared/observability';
import type { Repositories } from '../../../functions/store/repositories';

/** The channel notices `fanOutEvent` queues for `message`, read from the world's stores, at the message's time. */
export async function fanOutJobs(world: { readonly repos: Repositories; readonly links: FanOutLinks }, message: NotifyMessage): Promise<NoticeJob[]> {
  const jobs: NoticeJob[] = [];
  const queue: MessageQueue<ChannelJob> = {
    send: (entries) => {
      for (const e of entries) if ('notice' in e.body) jobs.push(e.body);
      return Promise.resolve({ sent: entries.map((e) => e.id), failed: [] });
    },
  };
  const { repos, links } = world;
  await fanOutEvent(
    { repos, channels: repos.channels, alerts: repos.alerts, channelQueue: queue, links, counters: memoryCounters(), now: () => message.at },
    message,
  );
  return jobs;
}
