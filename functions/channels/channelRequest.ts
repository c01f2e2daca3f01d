import type { ChannelConfig } from '../domain/channel';
import type { Notice } from '../domain/notice';
import { discordMessage } from './discordMessage';
import { pagerdutyEndpoint } from './pagerdutyEndpoint';
import { pagerdutyEvent } from './pagerdutyEvent';
import { slackMessage } from './slackMessage';
import { telegramMessage } from './telegramMessage';
import { webhookEvent } from './webhookEvent';
import { signWebhook } from './webhookSignature';

/** The API bases that are settings (`TELEGRAM_API_URL`, `PAGERDUTY_EVENTS_URL`). */
export interface ApiBases {
  readonly telegram: string;
  /** The Events API v2 endpoint, or its base (`pagerdutyEndpoint` takes either). */
  readonly pagerduty: string;
}

/** One HTTP request to a destination. `url` may hold the secret (a Slack URL, a bot token): never log it. A multipart body sets its own content type. */
export interface ChannelRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string | FormData;
}

/**
 * What goes besides the notice: its chart (PNG bytes) where the type shows one, and which part of
 * a Telegram photo notice this request is (`follow-up`: the full text after a photo whose caption
 * could not hold it).
 */
export interface RequestExtras {
  readonly chart: Uint8Array | null;
  readonly part: 'whole' | 'follow-up';
}

/** The file name of the chart attachment (Discord's embed refers to it as `attachment://chart.png`). */
export const CHART_FILE = 'chart.png';

const png = (bytes: Uint8Array): Blob => new Blob([new Uint8Array(bytes)], { type: 'image/png' });

const JSON_TYPE = { 'content-type': 'application/json' };

/**
 * The request that delivers `notice` to `channel` with its resolved `secret`, or `null` when the
 * type has nothing to send for it (a pager gets no expiry notice). `deliveryId` is the webhook's
 * `webhook-id`; `nowSec` its timestamp (fresh on every attempt). With a chart, Telegram gets a
 * `sendPhoto` and Discord an attached image (multipart); Slack webhooks cannot upload files, and
 * PagerDuty and webhooks get the notice as data.
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
  switch (channel.type) {
    case 'slack':
      return { url: secret, headers: JSON_TYPE, body: JSON.stringify(slackMessage(notice)) };
    case 'discord': {
      const url = new URL(secret);
      url.searchParams.set('wait', 'true');
      const message = discordMessage(notice);
      if (extras.chart === null) return { url: url.toString(), headers: JSON_TYPE, body: JSON.stringify(message) };
      // Discord's "Uploading Files": `payload_json` plus `files[0]`, the embed showing it as `attachment://<name>`.
      const embeds = (message.embeds ?? []).map((e, i) => (i === 0 ? { ...e, image: { url: `attachment://${CHART_FILE}` } } : e));
      const form = new FormData();
      form.set('payload_json', JSON.stringify({ ...message, embeds, attachments: [{ id: 0, filename: CHART_FILE }] }));
      form.set('files[0]', png(extras.chart), CHART_FILE);
      return { url: url.toString(), headers: {}, body: form };
    }
    case 'telegram': {
      const base = `${bases.telegram.replace(/\/+$/, '')}/bot${secret}`;
      const photo = extras.chart !== null && extras.part === 'whole';
      const request = telegramMessage(notice, channel.chatId ?? '', photo ? 'photo' : extras.part === 'follow-up' ? 'follow-up' : 'text');
      if (!photo || extras.chart === null) return { url: `${base}/${request.method}`, headers: JSON_TYPE, body: JSON.stringify(request.body) };
      // sendPhoto uploads the photo as multipart/form-data; the other parameters are its fields (the keyboard as JSON).
      const form = new FormData();
      for (const [key, value] of Object.entries(request.body)) form.set(key, typeof value === 'string' ? value : JSON.stringify(value));
      form.set('photo', png(extras.chart), CHART_FILE);
      return { url: `${base}/${request.method}`, headers: {}, body: form };
    }
    case 'pagerduty': {
      const event = pagerdutyEvent(notice);
      if (event === null) return null;
      return { url: pagerdutyEndpoint(bases.pagerduty), headers: JSON_TYPE, body: JSON.stringify({ routing_key: secret, ...event }) };
    }
    case 'webhook': {
      const body = JSON.stringify(webhookEvent(notice));
      return { url: channel.url ?? '', headers: { ...JSON_TYPE, ...signWebhook(secret, deliveryId, nowSec, body) }, body };
    }
  }
}
