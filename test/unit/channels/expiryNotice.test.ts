import { describe, expect, it } from 'vitest';
import { slackMessage } from '../../../functions/channels/slackMessage';
import { telegramMessage } from '../../../functions/channels/telegramMessage';
import { renderEmail } from '../../../functions/mail/render/render';
import { notifyMessageSchema, type NotifyMessage } from '../../../functions/messages/notifyMessage';
import { noticeOfMessage, type NoticeContext } from '../../../functions/services/notify/noticeOfMessage';
import { isEmailed } from '../../../functions/services/notify/emailedMessage';
import { notificationEmail, type NotificationContext } from '../../../functions/services/notify/notificationViews';

const ACCOUNT = '0x52908400098527886E0F7030069857D2E4169EE7';
const KEY = '0x00000000000000000000000000000000000A11cE';
const AT = Date.UTC(2030, 0, 7, 9);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The expiry warning the 3-day step sends for a key with `leftMs` to go. */
function warning(leftMs: number): NotifyMessage {
  const delegate = { address: KEY, expiryMs: AT + leftMs, name: 'trading-bot', isWebClient: false };
  return notifyMessageSchema.parse({
    eventId: `delegate:${ACCOUNT}:${KEY}:1:expiry:${AT + leftMs}:3d`,
    account: ACCOUNT,
    at: AT,
    kind: 'expiry-warning',
    delegate,
    expiryMs: delegate.expiryMs,
    stepDays: 3,
  });
}

const noticeCtx: NoticeContext = {
  account: { address: ACCOUNT, label: 'desk', timezone: 'UTC' },
  revokeUrl: () => 'https://sentinel.example/r/abc',
  snoozeUrl: () => 'https://sentinel.example/s/abc',
  preferencesUrl: () => 'https://sentinel.example/p/abc',
  revokeAllUrl: () => null,
  delegateCount: 1,
};

const mailCtx: NotificationContext = {
  account: { address: ACCOUNT, label: 'desk', drawdownThresholds: [5] },
  now: AT,
  links: {
    unsubscribeUrl: 'https://sentinel.example/prefs',
    oneClickUnsubscribe: false,
    preferencesUrl: 'https://sentinel.example/prefs',
    revokeUrl: () => 'https://sentinel.example/r/abc',
    snoozeUrl: () => 'https://sentinel.example/s/abc',
    revokeAllUrl: () => null,
  },
  chart: null,
  maxDrawdownUsd: null,
  rearmMarginPct: 1,
  isWebClient: () => false,
  delegateName: () => null,
  delegateCount: 1,
};

function wording(m: NotifyMessage) {
  if (!isEmailed(m)) throw new Error('expected an emailed message');
  const email = notificationEmail(m, mailCtx);
  if (email.kind !== 'delegate-expiry') throw new Error('expected a delegate-expiry email');
  const mail = renderEmail('delegate-expiry', email.view, { timeZone: 'UTC' });
  const notice = noticeOfMessage(m, noticeCtx);
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
