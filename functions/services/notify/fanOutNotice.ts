import { checksumAddress } from '../../domain/address';
import type { LinkMinter } from '../../links/linkMinter';
import type { ChannelJob } from '../../messages/channelJob';
import { channelAudience } from '../../notices/audience';
import { CHART_TYPES, encodeChart, queueChannelNotices } from '../delivery/channelNotices';
import type { NotifyMessage } from '../../messages/notifyMessage';
import type { MessageQueue } from '../../queue/messageQueue';
import type { TrackedAccount } from '../../domain/account';
import type { AlertStateRepository } from '../../store/alertStateRepository';
import type { ChannelsRepository } from '../../store/channelsRepository';
import { noticeHead, presentNotice } from '../../notices/presentNotice';

/** What fanning a notify message out to channels needs. */
export interface ChannelFanOutDeps {
  readonly channels: Pick<ChannelsRepository, 'list'>;
  /** The account's channel controls (snoozes and mutes from a chat's buttons): one `GetItem` when a channel is routed. */
  readonly alerts: Pick<AlertStateRepository, 'channelControls'>;
  readonly channelQueue: MessageQueue<ChannelJob>;
  readonly links: Pick<LinkMinter, 'build'> & { readonly revokeAllServed?: boolean };
}

/**
 * Puts one channel job per channel taking the notice (`channelAudience`: routed, of a type that
 * takes its category, not muted or snoozed) on the channel queue, each notice carrying that
 * channel's own Snooze and Preferences links. A channel whose people muted the notice's category
 * for the account, or snoozed its drawdown alerts, gets no job (the alert machine, the email
 * recipients and the other channels are untouched). Throws `QueueError` unless every job is
 * queued; a redelivered message queues them again and the worker's delivery ids send nothing
 * twice. Each channel's Revoke and Revoke-all links name that channel (and when they were issued),
 * so its link epoch withdraws them as it does its Snooze and Preferences links. Returns how many
 * jobs were queued.
 */
export async function fanOutNotice(
  deps: ChannelFanOutDeps,
  account: TrackedAccount,
  message: NotifyMessage,
  now: number,
  /** The account's current delegates (the "Revoke all N API keys" link), read only when a channel is routed and the notice's head asks for it. */
  delegateCount: () => Promise<number>,
  /** The notice's chart (the email's PNG), rendered only when a routed chat can show it. */
  chartPng: () => Promise<Uint8Array | null> = () => Promise.resolve(null),
): Promise<number> {
  const head = noticeHead(message);
  const taking = await channelAudience(deps, [account.address], head, now);
  if (taking.length === 0) return 0;
  const shared = {
    account: { address: account.address, label: account.label, timezone: account.timezone },
    delegateCount: head.loads?.delegateCount ? await delegateCount() : 0,
  };
  let chart: Promise<string | null> | undefined;
  const chartOf = (): Promise<string | null> => (chart ??= chartPng().then(encodeChart));
  const jobs = await Promise.all(
    taking.map(async ({ channel }) => {
      const notice = presentNotice(message, {
        ...shared,
        // Every link is the channel's own, bound to it: `channels revoke-links` and `channels remove` void it.
        links: {
          revokeUrl: (delegate) =>
            account.signer === null
              ? null
              : deps.links.build({ purpose: 'revoke', account: account.address, delegate: checksumAddress(delegate), channel: channel.name }, now),
          revokeAllUrl: () =>
            account.signer === null || deps.links.revokeAllServed === false
              ? null
              : deps.links.build({ purpose: 'revoke-all', account: account.address, channel: channel.name }, now),
          snoozeUrl: (hours) => deps.links.build({ purpose: 'channel-snooze', account: account.address, channel: channel.name, snoozeHours: hours }, now),
          preferencesUrl: () => deps.links.build({ purpose: 'channel-preferences', account: account.address, channel: channel.name }, now),
        },
      });
      const chartPng = notice.chart !== null && CHART_TYPES.includes(channel.type) ? await chartOf() : null;
      return { channel, notice, chartPng };
    }),
  );
  return queueChannelNotices(deps.channelQueue, jobs);
}
