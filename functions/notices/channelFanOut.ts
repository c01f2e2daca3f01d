import { channelDefinition, sendsNothing } from '../channels/channelRegistry';
import type { TrackedAccount } from '../domain/account';
import { checksumAddress } from '../domain/address';
import type { ChannelRecord } from '../domain/channel';
import type { ChannelControls } from '../domain/channelControls';
import type { Notice } from '../domain/notice';
import type { LinkMinter } from '../links/linkMinter';
import type { NotifyMessage } from '../messages/notifyMessage';
import { channelsTaking } from './audience';
import { noticeHead, presentNotice } from './presentNotice';

/** What the fan-out of one notify event read: the account, every channel, the account's channel controls and its delegates. */
export interface LoadedFanOut {
  readonly account: TrackedAccount;
  readonly channels: readonly ChannelRecord[];
  readonly controls: ChannelControls;
  /**
   * The account's delegates as collection last saw them (tombstones included), read when the notice
   * offers Revoke all and the account has a signer, or its head asks for the delegates' views.
   */
  readonly delegates: readonly { readonly delegate: string; readonly removedAt: number | null }[];
}

/** The channel links' minter; `revokeAllServed: false` where no page serves the Revoke-all link. */
export type FanOutLinks = Pick<LinkMinter, 'build'> & { readonly revokeAllServed?: boolean };

/** One channel's job of the event: its notice (with its own links) and whether it shows the event's chart. */
export interface FanOutJob {
  readonly channel: ChannelRecord;
  readonly notice: Notice;
  readonly withChart: boolean;
}

/**
 * The notices one notify event becomes on the channels (pure, but for the links' minting): one per
 * channel that takes it (`channelsTaking`: routed, of a type that takes its category, not muted or
 * snoozed there), each carrying that channel's own links, bound to it (its link epoch withdraws
 * them: `channels revoke-links`, `channels remove`); `withChart` where the notice has a chart and
 * the channel's type shows one. None for a channel whose type has nothing to send for the notice
 * (`sendsNothing`: a pager and a notice that opens or closes no incident).
 */
export function channelFanOut(message: NotifyMessage, loaded: LoadedFanOut, links: FanOutLinks, now: number): FanOutJob[] {
  const { account } = loaded;
  const head = noticeHead(message);
  const taking = channelsTaking(loaded.channels, new Map([[account.address, loaded.controls]]), head, now);
  // The delegates not removed: the Revoke-all link's N, and what a revoke-all result names as left.
  const listed = loaded.delegates.filter((d) => d.removedAt === null);
  const shared = {
    account: { address: account.address, label: account.label, timezone: account.timezone },
    delegateCount: head.loads?.delegateCount && account.signer !== null ? listed.length : 0,
    ...(head.loads?.delegateViews ? { listedDelegates: listed.map((d) => d.delegate) } : {}),
  };
  const jobs = taking.map(({ channel }) => {
    const notice = presentNotice(message, {
      ...shared,
      links: {
        revokeUrl: (delegate) =>
          account.signer === null
            ? null
            : links.build({ purpose: 'revoke', account: account.address, delegate: checksumAddress(delegate), channel: channel.name }, now),
        revokeAllUrl: () =>
          account.signer === null || links.revokeAllServed === false
            ? null
            : links.build({ purpose: 'revoke-all', account: account.address, channel: channel.name }, now),
        snoozeUrl: (hours) => links.build({ purpose: 'channel-snooze', account: account.address, channel: channel.name, snoozeHours: hours }, now),
        preferencesUrl: () => links.build({ purpose: 'channel-preferences', account: account.address, channel: channel.name }, now),
      },
    });
    return { channel, notice, withChart: notice.chart !== null && channelDefinition(channel.type).limits.showsChart };
  });
  return jobs.filter((job) => !sendsNothing(job.channel, job.notice));
}
