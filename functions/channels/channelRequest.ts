import type { ChannelConfig } from '../domain/channel';
import type { Notice } from '../domain/notice';
import type { ApiBases, ChannelRequest, RequestExtras } from './channelDefinition';
import { channelDefinition } from './channelRegistry';

/**
 * The request that delivers `notice` to `channel` with its resolved `secret`, or `null` when the
 * type has nothing to send for it (a pager gets no expiry notice). `deliveryId` is the webhook's
 * `webhook-id`; `nowSec` its timestamp (fresh on every attempt). A chart goes only where the type
 * shows one (`limits.showsChart`).
 */
export function channelRequest(
  channel: Pick<ChannelConfig, 'type' | 'url' | 'chatId'>,
  secret: string,
  notice: Notice,
  bases: ApiBases,
  deliveryId: string,
  nowSec: number,
  extras: RequestExtras = { chart: null, part: 'whole' },
): ChannelRequest | null {
  return channelDefinition(channel.type).request({ channel, secret, notice, bases, deliveryId, nowSec, extras });
}
