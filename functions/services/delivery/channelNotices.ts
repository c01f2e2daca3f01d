import { channelDefinition } from '../../channels/channelRegistry';
import { CHANNEL_TYPES, type ChannelRecord, type ChannelType } from '../../domain/channel';
import { channelTakes } from '../../domain/channelControls';
import { channelDeliveryId, routedChannels } from '../../domain/channelRouting';
import type { MailCategory } from '../../domain/mailCategory';
import type { Notice, NoticeType } from '../../domain/notice';
import type { LinkMinter } from '../../links/linkMinter';
import { MAX_CHART_BASE64, type ChannelJob } from '../../messages/channelJob';
import type { MessageQueue } from '../../queue/messageQueue';
import { sendAll } from '../../queue/sendAll';
import type { AlertStateRepository } from '../../store/alertStateRepository';
import type { ChannelsRepository } from '../../store/channelsRepository';

/** The channel types that show a notice's chart (`limits.showsChart`: a Telegram photo, a Discord attachment). */
export const CHART_TYPES: readonly ChannelType[] = CHANNEL_TYPES.filter((type) => channelDefinition(type).limits.showsChart);

/** What putting notices on the channel queue needs. */
export interface ChannelNoticePorts {
  readonly channels: Pick<ChannelsRepository, 'list'>;
  /** Each account's channel controls (snoozes and mutes from a chat's buttons): one `GetItem` per account with a routed channel. */
  readonly alerts: Pick<AlertStateRepository, 'channelControls'>;
  readonly channelQueue: MessageQueue<ChannelJob>;
  /** Mints each channel's own links (its Preferences link). */
  readonly links: Pick<LinkMinter, 'build'>;
}

/** A channel, and the accounts (of those asked) whose notice it takes now. */
export interface ChannelTaking {
  readonly channel: ChannelRecord;
  readonly accounts: readonly string[];
}

/**
 * The channels that take a notice of `type` and `category` about some of `accounts` at `now`:
 * routed to the account in that category, of a type that takes the category at all (a pager takes
 * no report), and not muted (or snoozed) for that account by the chat's buttons. Each with the
 * accounts it takes, in the order given; one entry per channel however many accounts it takes.
 */
export async function channelsTaking(
  deps: Pick<ChannelNoticePorts, 'channels' | 'alerts'>,
  accounts: readonly string[],
  notice: { readonly type: NoticeType; readonly category: MailCategory },
  now: number,
): Promise<ChannelTaking[]> {
  const channels = (await deps.channels.list()).filter((c) => channelDefinition(c.type).limits.takes(notice.category));
  if (channels.length === 0) return [];
  const taken = new Map<string, { channel: ChannelRecord; accounts: string[] }>();
  for (const account of accounts) {
    const routed = routedChannels(channels, account, notice.category);
    if (routed.length === 0) continue;
    const controls = await deps.alerts.channelControls(account);
    for (const channel of routed.filter((c) => channelTakes(controls, c.name, notice, now))) {
      const entry = taken.get(channel.name) ?? { channel, accounts: [] };
      entry.accounts.push(account);
      taken.set(channel.name, entry);
    }
  }
  return [...taken.values()];
}

/** A chart PNG as a channel job carries it (base64), or `null` when there is none or it is too large for the queue. */
export function encodeChart(png: Uint8Array | null): string | null {
  const encoded = png === null ? null : Buffer.from(png).toString('base64');
  return encoded !== null && encoded.length <= MAX_CHART_BASE64 ? encoded : null;
}

/**
 * Puts one job per (channel, notice) on the channel queue under the delivery id
 * `<notice id>#channel:<name>` (the worker claims it before sending, so a notice queued twice is
 * sent once); the chart goes to the types that show one. Throws `QueueError` unless every job is
 * queued. Returns how many were.
 */
export async function queueChannelNotices(
  queue: MessageQueue<ChannelJob>,
  jobs: readonly { readonly channel: Pick<ChannelRecord, 'name' | 'type'>; readonly notice: Notice; readonly chartPng: string | null }[],
): Promise<number> {
  await sendAll(
    queue,
    jobs.map(({ channel, notice, chartPng }) => ({
      id: channelDeliveryId(notice.id, channel.name),
      body: {
        channel: channel.name,
        notice,
        attempt: 0,
        ...(chartPng !== null && notice.chart !== null && CHART_TYPES.includes(channel.type) ? { chartPng } : {}),
      },
    })),
  );
  return jobs.length;
}
