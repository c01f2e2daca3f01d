import { checksumAddress } from '../../domain/address';
import { channelDeliveryId, routedChannels } from '../../domain/channelRouting';
import type { LinkMinter } from '../../links/linkMinter';
import type { ChannelJob } from '../../messages/channelJob';
import type { NotifyMessage } from '../../messages/notifyMessage';
import type { MessageQueue } from '../../queue/messageQueue';
import { sendAll } from '../../queue/sendAll';
import type { TrackedAccount } from '../../domain/account';
import type { ChannelsRepository } from '../../store/channelsRepository';
import { noticeOfMessage } from './noticeOfMessage';

/** What fanning a notify message out to channels needs. */
export interface ChannelFanOutDeps {
  readonly channels: Pick<ChannelsRepository, 'list'>;
  readonly channelQueue: MessageQueue<ChannelJob>;
  readonly links: Pick<LinkMinter, 'build'> & { readonly revokeAllServed?: boolean };
}

/**
 * Puts one channel job per routed channel on the channel queue (the notice built once, its
 * links shared: a snooze from a chat snoozes the account for everyone, as the snooze page says).
 * Throws `QueueError` unless every job is queued; a redelivered message queues them again and
 * the worker's delivery ids send nothing twice. Returns how many jobs were queued.
 */
export async function fanOutNotice(
  deps: ChannelFanOutDeps,
  account: TrackedAccount,
  message: NotifyMessage,
  now: number,
  /** The account's current delegates (the "Revoke all N API keys" link), read only when a channel is routed. */
  delegateCount: () => Promise<number>,
): Promise<number> {
  const channels = await deps.channels.list();
  if (channels.length === 0) return 0;
  const revokeAll = message.kind === 'drawdown' || message.kind === 'new-delegate';
  const notice = noticeOfMessage(message, {
    account: { address: account.address, label: account.label, timezone: account.timezone },
    revokeUrl: (delegate) => (account.signer === null ? null : deps.links.build({ purpose: 'revoke', account: account.address, delegate: checksumAddress(delegate) }, now)),
    snoozeUrl: (hours) => deps.links.build({ purpose: 'snooze', account: account.address, snoozeHours: hours }, now),
    revokeAllUrl: () => (account.signer === null || deps.links.revokeAllServed === false ? null : deps.links.build({ purpose: 'revoke-all', account: account.address }, now)),
    delegateCount: revokeAll ? await delegateCount() : 0,
  });
  const routed = routedChannels(channels, account.address, notice.category);
  await sendAll(
    deps.channelQueue,
    routed.map((channel) => ({ id: channelDeliveryId(notice.id, channel.name), body: { channel: channel.name, notice, attempt: 0 } })),
  );
  return routed.length;
}
