import { channelLimits, type ChannelDefinition } from '../channelDefinition';
import { refusedOn, retryAfterHeader } from '../answerParts';
import { webhookEvent, type WebhookEvent } from './webhookEvent';
import { signWebhook } from './webhookSignature';

/**
 * A signed webhook (Standard Webhooks): the secret signs, `--url` is the destination; the notice as
 * data; no pacing; a 429's `Retry-After` is honoured; 410 is permanent, every other failure is
 * retried on the webhook schedule (about 27 h), then the channel counts as broken.
 */
export const webhookChannel: ChannelDefinition<WebhookEvent> = {
  type: 'webhook',
  label: 'webhook',
  settings: { secret: 'the signing secret', url: { kind: 'required' }, chatId: false, hosts: null },
  render: (notice) => webhookEvent(notice),
  request: ({ channel, secret, notice, deliveryId, nowSec }) => {
    const body = JSON.stringify(webhookEvent(notice));
    return { url: channel.url ?? '', headers: { 'content-type': 'application/json', ...signWebhook(secret, deliveryId, nowSec, body) }, body };
  },
  classify: { throttledWaitMs: retryAfterHeader, refusal: (answer) => refusedOn(answer, [410], []) },
  limits: channelLimits({
    fields: {},
    pace: () => ({ kind: 'webhook', spacingMs: 0 }),
    retry: 'schedule',
  }),
  examples: ['delegate.new'],
};
