import type { RESTPostAPIWebhookWithTokenJSONBody } from 'discord-api-types/v10';
import { channelLimits, secretUrlSettings, type ChannelDefinition, type ChannelRequest } from '../channelDefinition';
import { isObject, refusedOn, retryAfterHeader, seconds } from '../answerParts';
import { CHART_FILE, jsonRequest, pngBlob } from '../requestParts';
import { DISCORD_LIMITS, discordMessage } from './discordMessage';

/** A Discord webhook request: JSON, or with a chart Discord's "Uploading Files" form (`payload_json` plus `files[0]`, the embed showing it). */
function discordRequest(secret: string, message: RESTPostAPIWebhookWithTokenJSONBody, chart: Uint8Array | null): ChannelRequest {
  const url = new URL(secret);
  url.searchParams.set('wait', 'true');
  if (chart === null) return jsonRequest(url.toString(), message);
  const embeds = (message.embeds ?? []).map((e, i) => (i === 0 ? { ...e, image: { url: `attachment://${CHART_FILE}` } } : e));
  const form = new FormData();
  form.set('payload_json', JSON.stringify({ ...message, embeds, attachments: [{ id: 0, filename: CHART_FILE }] }));
  form.set('files[0]', pngBlob(chart), CHART_FILE);
  return { url: url.toString(), headers: {}, body: form };
}

/**
 * Discord webhooks: the secret is the webhook URL; one embed (the chart attached to it); 5 requests
 * per 2 s per webhook, a 429 names its wait in the body's `retry_after` (fractional seconds);
 * 401 and 404 (Unknown Webhook) are permanent, a 400 is ours.
 */
export const discordChannel: ChannelDefinition<RESTPostAPIWebhookWithTokenJSONBody> = {
  type: 'discord',
  label: 'Discord',
  settings: secretUrlSettings('webhook URL', ['discord.com', 'discordapp.com', 'canary.discord.com', 'ptb.discord.com']),
  render: (notice) => discordMessage(notice),
  request: ({ secret, notice, extras }) => discordRequest(secret, discordMessage(notice), extras.chart),
  classify: {
    throttledWaitMs: (answer) => seconds(isObject(answer.parsed) ? answer.parsed['retry_after'] : null) ?? retryAfterHeader(answer),
    refusal: (answer) => refusedOn(answer, [401, 404]),
  },
  limits: channelLimits({
    fields: DISCORD_LIMITS,
    pace: () => ({ kind: 'discord', spacingMs: 400 }),
    combinesBacklog: true,
    showsChart: true,
  }),
  examples: ['delegate.new'],
};
