import type { ChannelRecord } from './channel';
import type { MailCategory } from './mailCategory';

/**
 * The channels a notice of `category` about `account` goes to: those routed to the account
 * (case-insensitive address) whose categories include it. A broken channel is still routed (its
 * job is dropped by the worker, which records why), so fixing it needs no re-routing.
 */
export function routedChannels<C extends Pick<ChannelRecord, 'accounts' | 'categories'>>(channels: readonly C[], account: string, category: MailCategory): C[] {
  const wanted = account.toLowerCase();
  return channels.filter((c) => c.categories.includes(category) && c.accounts.some((a) => a.toLowerCase() === wanted));
}

/** The channels routed to `account` (case-insensitive address), whatever their categories, by name. */
export function channelsRoutedTo<C extends Pick<ChannelRecord, 'accounts' | 'name'>>(channels: readonly C[], account: string): C[] {
  const wanted = account.toLowerCase();
  return channels.filter((c) => c.accounts.some((a) => a.toLowerCase() === wanted)).sort((a, b) => a.name.localeCompare(b.name));
}

/** The delivery-record key of one notice to one channel (also the webhook's `webhook-id`). */
export function channelDeliveryId(noticeId: string, channel: string): string {
  return `${noticeId}#channel:${channel}`;
}
