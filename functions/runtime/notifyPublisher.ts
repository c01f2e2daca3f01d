import type { FanOutEvent } from '../messages/channelJob';
import { isNotifyMessage, type NotifyQueueEvent } from '../messages/notifyMessage';
import type { MessageQueue, QueueEntry, SendFailure, SendResult } from '../queue/messageQueue';

/**
 * The one way producers publish notify events: each goes to the notify queue (its emails, paced
 * at the mail rate) and, as a `fanout` job, to the fan-out queue (its chats, pagers and webhooks,
 * expanded by `channel-fanout` into jobs on the channel queue), so no channel waits for any email.
 * An onboarding check goes to the notify queue only (it is about a batch; notify sends its emails
 * and channel notice), and so does a broken-channel notice (email only; the channel worker queues
 * it there itself).
 *
 * An entry counts as sent only when both queues took it; otherwise it is reported failed and the
 * producer re-publishes it whole. Both consumers are idempotent per (event, recipient) and (event,
 * channel), so the copy that did get through is not sent twice.
 */
export function notifyPublisher<T extends NotifyQueueEvent>(notify: MessageQueue<T>, fanOutQueue: MessageQueue<FanOutEvent>): MessageQueue<T> {
  return {
    async send(entries: readonly QueueEntry<T>[]): Promise<SendResult> {
      const fanOut: QueueEntry<FanOutEvent>[] = [];
      for (const entry of entries) {
        const body: NotifyQueueEvent = entry.body;
        if (isNotifyMessage(body))
          fanOut.push({ id: entry.id, body: { fanout: body }, ...(entry.delaySeconds === undefined ? {} : { delaySeconds: entry.delaySeconds }) });
      }
      const [emailed, chats] = await Promise.all([notify.send(entries), fanOut.length === 0 ? { sent: [], failed: [] } : fanOutQueue.send(fanOut)]);
      const failed = new Map<string, SendFailure>();
      for (const failure of [...emailed.failed, ...chats.failed]) if (!failed.has(failure.id)) failed.set(failure.id, failure);
      return { sent: entries.map((e) => e.id).filter((id) => !failed.has(id)), failed: [...failed.values()] };
    },
  };
}
