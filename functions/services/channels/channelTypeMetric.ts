import { CHANNEL_TYPES, type ChannelType } from '../../domain/channel';

/** What a per-type channel metric counts: messages delivered, or attempts that failed (refused, payload rejected, passing failures). */
export type ChannelTypeMeasure = 'Deliveries' | 'Failures';

/** The metric of `measure` for one channel type, e.g. `ChannelDeliveriesSlack` (read by the dashboard). */
export function channelTypeMetric(measure: ChannelTypeMeasure, type: ChannelType): string {
  return `Channel${measure}${type.charAt(0).toUpperCase()}${type.slice(1)}`;
}

/** Every per-type metric of `measure`, by type. */
export function channelTypeMetrics(measure: ChannelTypeMeasure): { type: ChannelType; metric: string }[] {
  return CHANNEL_TYPES.map((type) => ({ type, metric: channelTypeMetric(measure, type) }));
}
