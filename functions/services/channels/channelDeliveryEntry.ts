import type { DeliveryHistoryEntry } from '../../domain/deliveryHistoryEntry';
import type { NoticeJob } from '../../messages/channelJob';
import { withoutUrls } from '../../shared/withoutUrls';
import type { ChannelJobOutcome } from './channelJobDeps';

function plain(reason: string): string {
  const text = withoutUrls(reason);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/**
 * The account's delivery-history entry of one notice to one channel (by its name, never its URL or
 * token) and how the job ended: sent; failed for good and why (refused, the payload rejected,
 * given up); suppressed and why (the channel removed, broken, no longer routed); waiting (a later
 * slot, a retry, the channel's next summary). `null` when there is nothing new to tell (a
 * duplicate, a notice the channel's type does not take, a backlog's summary).
 */
export function channelDeliveryEntry(job: NoticeJob, outcome: ChannelJobOutcome, at: number): DeliveryHistoryEntry | null {
  const base = { via: 'channel', to: job.channel, what: job.notice.type, at, eventId: job.notice.id.slice(0, 400) } as const;
  switch (outcome.kind) {
    case 'delivered':
      return { ...base, outcome: 'sent', reason: null };
    case 'refused':
      return { ...base, outcome: 'failed', reason: plain(`the channel refused it and is marked broken: ${outcome.reason}`) };
    case 'payload-rejected':
      return { ...base, outcome: 'failed', reason: plain(`the destination rejected the message: ${outcome.reason}`) };
    case 'gave-up':
      return { ...base, outcome: 'failed', reason: plain(`given up: ${outcome.reason}`) };
    case 'skipped':
      return { ...base, outcome: 'suppressed', reason: plain(outcome.reason) };
    case 'requeued':
      return { ...base, outcome: 'retrying', reason: plain(`tried again in ${outcome.delaySeconds} s: ${outcome.reason}`) };
    case 'parked':
      return { ...base, outcome: 'held', reason: "waiting for the channel's next summary" };
    case 'duplicate':
    case 'not-applicable':
    case 'combined':
      return null;
  }
}
