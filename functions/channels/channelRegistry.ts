import type { ChannelConfig, ChannelType } from '../domain/channel';
import type { Notice } from '../domain/notice';
import type { ChannelDefinition } from './channelDefinition';
import { discordChannel } from './discord/discordChannel';
import { pagerdutyChannel } from './pagerduty/pagerdutyChannel';
import { slackChannel } from './slack/slackChannel';
import { teamsChannel } from './teams/teamsChannel';
import { telegramChannel } from './telegram/telegramChannel';
import { webhookChannel } from './webhook/webhookChannel';

/** Every channel type, by its name: a new type is its folder and one line here (and its name in `CHANNEL_TYPES`). */
export const CHANNEL_REGISTRY: { readonly [T in ChannelType]: ChannelDefinition } = {
  slack: slackChannel,
  discord: discordChannel,
  telegram: telegramChannel,
  pagerduty: pagerdutyChannel,
  webhook: webhookChannel,
  teams: teamsChannel,
};

/** The definition of `type`. */
export function channelDefinition(type: ChannelType): ChannelDefinition {
  return CHANNEL_REGISTRY[type];
}

/** The least spacing (ms) between two sends to `channel`'s destination (`limits.pace`). */
export function spacingOf(channel: Pick<ChannelConfig, 'type' | 'chatId'>): number {
  return channelDefinition(channel.type).limits.pace(channel).spacingMs;
}

/** Whether `channel`'s type has nothing to send for `notice` (a pager and a notice that opens or closes no incident): no job, no delivery. */
export function sendsNothing(channel: Pick<ChannelConfig, 'type' | 'chatId'>, notice: Notice): boolean {
  return channelDefinition(channel.type).render(notice, channel) === null;
}
