import { channelLimits, secretUrlSettings, type ChannelDefinition } from '../channelDefinition';
import { refusedOn, retryAfterHeader } from '../answerParts';
import { jsonRequest } from '../requestParts';
import { TEAMS_LIMITS, teamsMessage, type TeamsMessage } from './teamsMessage';

/**
 * Microsoft Teams through a Workflows webhook ("When a Teams webhook request is received"): the
 * secret is the workflow's URL (its query holds the signature); one Adaptive Card in a `message`
 * attachment, at most about 28 KB; more than 4 requests a second to one webhook are answered 429
 * (`Retry-After` when given); 401, 403 and 404 (the workflow deleted, turned off or its signature
 * changed) are permanent; a 400 or a 413 (too large) is ours. An accepted message is a 202.
 */
export const teamsChannel: ChannelDefinition<TeamsMessage> = {
  type: 'teams',
  label: 'Microsoft Teams',
  settings: secretUrlSettings('workflow URL', ['.logic.azure.com', '.api.powerplatform.com']),
  render: (notice) => teamsMessage(notice),
  request: ({ secret, notice }) => jsonRequest(secret, teamsMessage(notice)),
  classify: { throttledWaitMs: retryAfterHeader, refusal: (answer) => refusedOn(answer, [401, 403, 404], [400, 413]) },
  limits: channelLimits({
    maxBodyBytes: TEAMS_LIMITS.bodyBytes,
    fields: TEAMS_LIMITS,
    pace: () => ({ kind: 'teams', spacingMs: 250 }),
    combinesBacklog: true,
  }),
  examples: ['delegate.new'],
};
