import { discordMessage } from '../../../functions/channels/discord/discordMessage';
import { pagerdutyEvent } from '../../../functions/channels/pagerduty/pagerdutyEvent';
import { slackMessage } from '../../../functions/channels/slack/slackMessage';
import { telegramMessage } from '../../../functions/channels/telegram/telegramMessage';
import { webhookEvent } from '../../../functions/channels/webhook/webhookEvent';
import type { ChannelType } from '../../../functions/domain/channel';
import { drawdownEvent, newDelegateEvent, noticeOf, recoveredEvent } from './noticeFixtures';

/** The new-delegate notice the docs show, with an ordinary delegate name. */
const newDelegate = noticeOf({ ...newDelegateEvent, delegate: { ...newDelegateEvent.delegate, name: 'bot' } });

/** The Telegram chat id the docs use (a supergroup's). */
export const DOC_CHAT_ID = '-1001234567890';

/**
 * What each docs/channels/<type>.md page shows as sent, by example name, rendered now by the real
 * renderers (`test/unit/channels/docExamples.test.ts` checks the pages against it).
 */
export function docExamples(): Record<ChannelType, Record<string, unknown>> {
  return {
    slack: { 'delegate.new': slackMessage(newDelegate) },
    discord: { 'delegate.new': discordMessage(newDelegate) },
    telegram: { 'delegate.new': telegramMessage(newDelegate, DOC_CHAT_ID) },
    pagerduty: { 'drawdown.fired': pagerdutyEvent(noticeOf(drawdownEvent)), 'drawdown.recovered': pagerdutyEvent(noticeOf(recoveredEvent)) },
    webhook: { 'delegate.new': webhookEvent(newDelegate) },
  };
}
