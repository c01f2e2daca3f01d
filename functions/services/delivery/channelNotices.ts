import { channelDefinition } from '../../channels/channelRegistry';
import { CHANNEL_TYPES, type ChannelRecord, type ChannelType } from '../../domain/channel';
import { channelDeliveryId } from '../../domain/channelRouting';
import type { Notice } from '../../domain/notice';
import type { LinkMinter } from '../../links/linkMinter';
import { MAX_CHART_BASE64, type ChannelJob } from '../../messages/channelJob';
import type { MessageQueue } from '../../queue/messageQueue';
import { sendAll } from '../../queue/sendAll';
import type { ChannelRoutingPorts } from '../../notices/audience';
import type { Counters } from '../../shared/observability';

/** The channel types that show a notice's chart (`limits.showsChart`: a Telegram photo, a Discord attachment). */
export const CHART_TYPES: readonly ChannelType[] = CHANNEL_TYPES.filter((type) => channelDefinition(type).limits.showsChart);

/** Metric: channel jobs queued for reports (one per report or digest and channel taking it: the fan-out's and the digests'). */
export const REPORT_CHANNEL_JOBS_METRIC = 'ReportChannelJobs';

/** Counts `queued` report or digest channel jobs (`ReportChannelJobs`); none is no data point. Returns `queued`. */
export function countReportChannelJobs(counters: Pick<Counters, 'count'>, queued: number): number {
  if (queued > 0) counters.count(REPORT_CHANNEL_JOBS_METRIC, queued);
  return queued;
}

/** What routing notices to channels and putting them on the channel queue needs. */
export interface ChannelNoticePorts extends ChannelRoutingPorts {
  readonly channelQueue: MessageQueue<ChannelJob>;
  /** Mints each channel's own links (its Preferences link). */
  readonly links: Pick<LinkMinter, 'build'>;
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
