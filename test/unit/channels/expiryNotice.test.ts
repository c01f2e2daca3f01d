import { describe, expect, it } from 'vitest';
import { slackMessage } from '../../../functions/channels/slack/slackMessage';
import { telegramMessage } from '../../../functions/channels/telegram/telegramMessage';
import type { NotifyEvent } from '../../../functions/messages/notifyMessage';
import { ACCOUNT, DELEGATE, emailOf, noticeOf } from '../../support/channels/noticeFixtures';

const AT = Date.UTC(2030, 0, 7, 9);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The expiry warning the 3-day step sends for a key with `leftMs` to go. */
function warning(leftMs: number): NotifyEvent {
  const delegate = { address: DELEGATE, expiryMs: AT + leftMs, name: 'trading-bot', isWebClient: false };
  return {
    kind: 'expiry-warning',
    eventId: `delegate:${ACCOUNT}:${DELEGATE}:1:expiry:${AT + leftMs}:3d`,
    account: ACCOUNT,
    at: AT,
    delegate,
    expiryMs: AT + leftMs,
    stepDays: 3,
  };
}

function wording(event: NotifyEvent) {
  const mail = emailOf(event);
  const notice = noticeOf(event);
  return {
    subject: mail.subject,
    text: mail.text,
    chat: notice.title,
    slack: JSON.stringify(slackMessage(notice)),
    telegram: JSON.stringify(telegramMessage(notice, '-100', 'text').body),
  };
}

describe('expiry wording: one countdown in email and chat', () => {
  it('a key with 2 days 1 hour left expires "in 2 days 1 h" in the email and in every chat, not by the warning step', () => {
    const w = wording(warning(2 * DAY + HOUR));
    expect(w.subject).toContain('expires in 2 days 1 h');
    expect(w.text).toContain('expires in 2 days 1 h');
    expect(w.chat).toBe('A delegate expires in 2 days 1 h');
    for (const chat of [w.slack, w.telegram]) {
      expect(chat).toContain('expires in 2 days 1 h');
      expect(chat).not.toMatch(/day\(s\)|in 3 day/);
    }
  });

  it('says "1 day" and "1 h", never "1 days"', () => {
    expect(wording(warning(DAY + HOUR + 30 * 60_000)).chat).toBe('A delegate expires in 1 day 1 h');
    expect(wording(warning(DAY)).subject).toContain('expires in 1 day');
    expect(wording(warning(5 * HOUR)).chat).toBe('A delegate expires in 5 h');
  });
});
