import type { ChannelConfig } from '../domain/channel';
import type { Notice } from '../domain/notice';
import { discordMessage } from './discordMessage';
import { pagerdutyEvent } from './pagerdutyEvent';
import { slackMessage } from './slackMessage';
import { telegramMessage } from './telegramMessage';
import { webhookEvent } from './webhookEvent';
import { signWebhook } from './webhookSignature';

/** The API bases that are settings (`TELEGRAM_API_URL`, `PAGERDUTY_EVENTS_URL`). */
export interface ApiBases {
  readonly telegram: string;
  readonly pagerduty: string;
}

/** One HTTP request to a destination. `url` may hold the secret (a Slack URL, a bot token): never log it. */
export interface ChannelRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

const JSON_TYPE = { 'content-type': 'application/json' };

/**
 * The request that delivers `notice` to `channel` with its resolved `secret`, or `null` when the
 * type has nothing to send for it (a pager gets no expiry notice). `deliveryId` is the webhook's
 * `webhook-id`; `nowSec` its timestamp (fresh on every attempt).
 */
export function channelRequest(
  channel: Pick<ChannelConfig, 'type' | 'url' | 'chatId'>,
  secret: string,
  notice: Notice,
  bases: ApiBases,
  deliveryId: string,
  nowSec: number,
): ChannelRequest | null {
  switch (channel.type) {
    case 'slack':
      return { url: secret, headers: JSON_TYPE, body: JSON.stringify(slackMessage(notice)) };
    case 'discord': {
      const url = new URL(secret);
      url.searchParams.set('wait', 'true');
      return { url: url.toString(), headers: JSON_TYPE, body: JSON.stringify(discordMessage(notice)) };
    }
    case 'telegram': {
      const request = telegramMessage(notice, channel.chatId ?? '');
      return { url: `${bases.telegram.replace(/\/+$/, '')}/bot${secret}/${request.method}`, headers: JSON_TYPE, body: JSON.stringify(request.body) };
    }
    case 'pagerduty': {
      const event = pagerdutyEvent(notice);
      if (event === null) return null;
      return { url: `${bases.pagerduty.replace(/\/+$/, '')}/v2/enqueue`, headers: JSON_TYPE, body: JSON.stringify({ routing_key: secret, ...event }) };
    }
    case 'webhook': {
      const body = JSON.stringify(webhookEvent(notice));
      return { url: channel.url ?? '', headers: { ...JSON_TYPE, ...signWebhook(secret, deliveryId, nowSec, body) }, body };
    }
  }
}
