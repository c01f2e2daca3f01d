import { channelLimits, type ChannelDefinition } from '../channelDefinition';
import { refusedOn, retryAfterHeader } from '../answerParts';
import { jsonRequest } from '../requestParts';
import { pagerdutyEndpoint } from './pagerdutyEndpoint';
import { PAGERDUTY_LIMITS, pagerdutyEvent, type PagerDutyEvent } from './pagerdutyEvent';

/** How long PagerDuty asks to back off after its bare 429 (its docs: "about 30 seconds"). */
export const PAGERDUTY_BACKOFF_MS = 30_000;

/**
 * The PagerDuty Events API v2: the secret is the integration's routing key; a trigger per incident
 * notice and a resolve under the same `dedup_key`; 120 events a minute per key, a bare 429 (back off
 * about 30 s); a 400 naming the routing key, 401, 403 and 404 are permanent. A pager never gets
 * reports, nor a notice without an incident.
 */
export const pagerdutyChannel: ChannelDefinition<PagerDutyEvent> = {
  type: 'pagerduty',
  label: 'PagerDuty',
  settings: { secret: 'the integration routing key', url: { kind: 'refused', why: 'API base is a setting' }, chatId: false, hosts: null },
  render: (notice) => pagerdutyEvent(notice),
  request: ({ secret, notice, bases }) => {
    const event = pagerdutyEvent(notice);
    return event === null ? null : jsonRequest(pagerdutyEndpoint(bases.pagerduty), { routing_key: secret, ...event });
  },
  classify: {
    throttledWaitMs: (answer) => retryAfterHeader(answer) ?? PAGERDUTY_BACKOFF_MS,
    refusal: (answer) =>
      answer.status === 400 && /routing[ _]key/i.test(answer.body)
        ? { kind: 'refused', status: 400, reason: answer.reason }
        : refusedOn(answer, [401, 403, 404]),
  },
  limits: channelLimits({
    fields: PAGERDUTY_LIMITS,
    pace: () => ({ kind: 'pagerduty', spacingMs: 500 }),
    keepsIncidents: true,
    takes: (category) => category !== 'reports',
  }),
  examples: ['drawdown.fired', 'drawdown.recovered'],
};
