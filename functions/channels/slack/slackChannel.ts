import { channelLimits, secretUrlSettings, type ChannelDefinition } from '../channelDefinition';
import { refusedOn, retryAfterHeader } from '../answerParts';
import { jsonRequest } from '../requestParts';
import { SLACK_LIMITS, slackMessage, type SlackMessage } from './slackMessage';

/**
 * Slack incoming webhooks: the secret is the webhook URL; Block Kit blocks; 1 message a second per
 * webhook, a 429 names its wait in `Retry-After`; 403, 404 and 410 (`invalid_token`, `no_service`,
 * `channel_is_archived`) are permanent, a 400 (`invalid_payload`, `invalid_blocks`) is ours. Webhooks
 * cannot upload files: no chart.
 */
export const slackChannel: ChannelDefinition<SlackMessage> = {
  type: 'slack',
  label: 'Slack',
  settings: secretUrlSettings('webhook URL', ['hooks.slack.com']),
  render: (notice) => slackMessage(notice),
  request: ({ secret, notice }) => jsonRequest(secret, slackMessage(notice)),
  classify: { throttledWaitMs: retryAfterHeader, refusal: (answer) => refusedOn(answer, [403, 404, 410]) },
  limits: channelLimits({
    fields: SLACK_LIMITS,
    pace: () => ({ kind: 'slack', spacingMs: 1_000 }),
    combinesBacklog: true,
  }),
  examples: ['delegate.new'],
};
