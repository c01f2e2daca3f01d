import type { NoticeExample } from '../../../functions/channels/channelDefinition';
import { channelDefinition } from '../../../functions/channels/channelRegistry';
import { CHANNEL_TYPES, type ChannelType } from '../../../functions/domain/channel';
import type { Notice } from '../../../functions/domain/notice';
import { drawdownEvent, newDelegateEvent, noticeOf, recoveredEvent } from './noticeFixtures';

/** The Telegram chat id the docs use (a supergroup's). */
export const DOC_CHAT_ID = '-1001234567890';

/** The notices the docs show by example name (the new delegate with an ordinary name). */
const EXAMPLE_NOTICES: Record<NoticeExample, () => Notice> = {
  'delegate.new': () => noticeOf({ ...newDelegateEvent, delegate: { ...newDelegateEvent.delegate, name: 'bot' } }),
  'drawdown.fired': () => noticeOf(drawdownEvent),
  'drawdown.recovered': () => noticeOf(recoveredEvent),
};

/**
 * What each docs/channels/<type>.md page shows as sent, by example name: the type's `examples`
 * rendered now by its definition (`test/unit/channels/docExamples.test.ts` checks the pages against it).
 */
export function docExamples(): Record<ChannelType, Record<string, unknown>> {
  const byType = CHANNEL_TYPES.map((type) => {
    const definition = channelDefinition(type);
    return [type, Object.fromEntries(definition.examples.map((name) => [name, definition.render(EXAMPLE_NOTICES[name](), { chatId: DOC_CHAT_ID })]))] as const;
  });
  return Object.fromEntries(byType) as Record<ChannelType, Record<string, unknown>>;
}
