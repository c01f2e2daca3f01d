import { slackMessage } from '../../../functions/channels/slack/slackMessage';
import type { Notice } from '../../../functions/domain/notice';
import { renderEmail, type RenderedEmail } from '../../../functions/mail/render/render';
import type { EmailKind } from '../../../functions/mail/render/views';
import {
  channelBrokenMessageSchema,
  notifyMessageSchema,
  type ChannelBrokenMessage,
  type NotifyEvent,
  type NotifyMessage,
} from '../../../functions/messages/notifyMessage';
import type { ChannelType } from '../../../functions/domain/channel';
import type { MailInput, NoticeInput } from '../../../functions/notices/noticeInput';
import { presentNotice } from '../../../functions/notices/presentNotice';
import { channelBrokenEventId } from '../../../functions/notices/channelBrokenPresenter';

export const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
export const DELEGATE = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
/** A delegate name an intruder would choose. */
export const HOSTILE_NAME = '<!channel> <https://evil.example|Revoke> @everyone <b>&amp; <script>';
const AT = Date.UTC(2025, 5, 1, 12);

const context = {
  account: { address: ACCOUNT, label: 'desk <one>', timezone: 'Europe/Berlin' },
  links: {
    revokeUrl: (d: string) => `https://sentinel.example/revoke?token=tok-${d.slice(2, 8)}`,
    snoozeUrl: (h: number) => `https://sentinel.example/snooze?token=snooze-${h}`,
    preferencesUrl: () => 'https://sentinel.example/preferences?token=prefs',
    revokeAllUrl: () => 'https://sentinel.example/revoke-all?token=tok-all',
  },
  delegateCount: 3,
};

/** What an alert email shows besides the message, with nothing loaded (no chart, no names): `changes` sets the rest. */
export function plainMailInput(now: number, changes: Partial<MailInput> = {}): MailInput {
  return {
    now,
    unsubscribeUrl: 'https://sentinel.example/unsubscribe?token=unsub',
    drawdownThresholds: [5, 10, 20],
    chart: null,
    maxDrawdownUsd: null,
    rearmMarginPct: 1,
    isWebClient: () => false,
    delegateName: () => null,
    ...changes,
  };
}

/**
 * What the notify service loads for a chat notice to `account` (labelled "desk", in UTC, two
 * delegates), with fixed links; `revokeAllUrl` is `null` where no revoke-all link is offered.
 */
export function alertNoticeInput(account: string, revokeAllUrl: string | null): Omit<NoticeInput, 'mail'> {
  return {
    account: { address: account, label: 'desk', timezone: 'UTC' },
    links: {
      revokeUrl: () => 'https://sentinel.example/r/abc',
      snoozeUrl: () => 'https://sentinel.example/s/abc',
      preferencesUrl: () => 'https://sentinel.example/prefs',
      revokeAllUrl: () => revokeAllUrl,
    },
    delegateCount: 2,
  };
}

/**
 * An alert message as email (its `kind`, rendered in UTC) and as a chat notice (in Slack too), for
 * `alertNoticeInput(message.account, revokeAllUrl)`; throws if it is not emailed as `kind`.
 */
export function renderedAlert(message: NotifyMessage, kind: EmailKind, revokeAllUrl: string | null, loaded: Pick<NoticeInput, 'listedDelegates'> = {}) {
  const input = { ...alertNoticeInput(message.account, revokeAllUrl), ...loaded };
  const { email } = presentNotice(message, {
    ...input,
    mail: plainMailInput(message.at, { unsubscribeUrl: 'https://sentinel.example/prefs', drawdownThresholds: [5] }),
  });
  if (email?.kind !== kind) throw new Error(`expected a ${kind} email, got ${email?.kind ?? 'none'}`);
  const mail = renderEmail(email.kind, email.view, { timeZone: 'UTC' });
  const notice = presentNotice(message, input);
  const slack = slackMessage(notice);
  return { mail, notice, slack, slackText: JSON.stringify(slack.blocks) };
}

/** The notice of a notify event, built as the notify service builds it. */
export function noticeOf(event: NotifyEvent): Notice {
  return presentNotice(notifyMessageSchema.parse(event), context);
}

/** The email of a notify event, rendered as the notify service renders it at `now` (default the event's time), for the account and links `noticeOf` uses. */
export function emailOf(event: NotifyEvent, now: number = event.at): RenderedEmail {
  const message = notifyMessageSchema.parse(event);
  const { email } = presentNotice(message, {
    ...context,
    mail: plainMailInput(now),
  });
  if (email === undefined) throw new Error(`${message.kind} is sent to channels only`);
  return renderEmail(email.kind, email.view, { timeZone: context.account.timezone });
}

export const drawdownEvent = {
  kind: 'drawdown' as const,
  eventId: `drawdown:${ACCOUNT}:20:fired:never`,
  account: ACCOUNT,
  at: AT,
  notice: 'fired' as 'fired' | 'repeated',
  level: 20,
  levels: [5, 10, 20],
  drawdownPct: 21.5,
  maxDrawdownPct: 23,
  dollarDrawdown: 2150,
  peakAt: AT - 86_400_000,
  peakEquity: 10_000,
  equityNow: 7_850,
  pnlNow: -2_150,
  asOf: AT,
} satisfies NotifyEvent;

/** `account`'s 10% level fired at `now`: 11% down from a $1,000 peak an hour before. */
export function drawdownFiredAt(account: string, now: number, eventId: string) {
  return {
    kind: 'drawdown' as const,
    eventId,
    account,
    at: now,
    notice: 'fired' as const,
    level: 10,
    levels: [5, 10],
    drawdownPct: 11,
    maxDrawdownPct: 11,
    dollarDrawdown: 100,
    peakAt: now - 3_600_000,
    peakEquity: 1_000,
    equityNow: 890,
    pnlNow: -110,
    asOf: now,
  } satisfies NotifyEvent;
}

/** The 20% level of `drawdownEvent` recovered past the hysteresis. */
export const recoveredEvent = {
  kind: 'drawdown-recovered' as const,
  eventId: `drawdown:${ACCOUNT}:20:recovered:${AT}`,
  account: ACCOUNT,
  at: AT + 3_600_000,
  level: 20,
  drawdownPct: 17.5,
  equityNow: 8_250,
  asOf: AT + 3_600_000,
} satisfies NotifyEvent;

export const newDelegateEvent = {
  kind: 'new-delegate' as const,
  eventId: `delegate:${ACCOUNT}:${DELEGATE}:1:new`,
  account: ACCOUNT,
  at: AT,
  delegate: { address: DELEGATE, expiryMs: AT + 30 * 86_400_000, name: HOSTILE_NAME, isWebClient: false },
  firstSeenAt: AT,
} satisfies NotifyEvent;

export const revokedEvent: NotifyEvent = {
  kind: 'revocation-result',
  eventId: 'revocation-result#tok1',
  account: ACCOUNT,
  at: AT + 60_000,
  delegate: { address: DELEGATE, name: HOSTILE_NAME },
  outcome: 'revoked',
  message: null,
  nonce: 4,
  transactionSignature: '0xabc',
};

export const expiringEvent: NotifyEvent = {
  kind: 'expiry-warning',
  eventId: `delegate:${ACCOUNT}:${DELEGATE}:1:expiry:${AT}:7d`,
  account: ACCOUNT,
  at: AT,
  delegate: { address: DELEGATE, expiryMs: AT + 7 * 86_400_000, name: 'bot', isWebClient: false },
  expiryMs: AT + 7 * 86_400_000,
  stepDays: 7,
};

const BOT = '0x0000000000000000000000000000000000000011';

/** The kill switch fired at the 30% level and queued the revocation of `DELEGATE` and a bot (its notice pages: a trigger). */
export const killSwitchFiredEvent: NotifyEvent = {
  kind: 'kill-switch',
  eventId: `kill-switch:${ACCOUNT.toLowerCase()}:${AT}`,
  account: ACCOUNT,
  at: AT,
  firing: {
    levelPct: 30,
    drawdownPct: 31,
    rereadPct: 30.4,
    peakAt: AT - 3_600_000,
    asOf: AT,
    reason: 'kill-switch: drawdown 31.00% now, 1-minute re-read 30.4% ≥ 30% at x',
    requested: [DELEGATE, BOT],
    keptWebSessions: [],
    action: { kind: 'requested', outcome: { kind: 'queued', decisionId: 'd-fired', delegates: [DELEGATE, BOT] } },
  },
};

/** The result of `killSwitchFiredEvent`'s decision: both keys revoked, none left. */
export const killSwitchRevokedEvent: NotifyEvent = {
  kind: 'decision-result',
  eventId: 'decision-result#d-fired',
  account: ACCOUNT,
  at: AT + 60_000,
  result: {
    decisionId: 'd-fired',
    rule: 'kill-switch',
    reason: 'kill-switch: drawdown 31.00% now',
    units: [
      { address: DELEGATE, name: 'bot-a', status: 'revoked', refusal: null, text: 'revoked' },
      { address: BOT, name: 'bot-b', status: 'revoked', refusal: null, text: 'revoked' },
    ],
    left: [],
    judgedAgainAt: null,
  },
};

/** A notice far past every destination's limits. */
export function hugeNotice(): Notice {
  const base = noticeOf(newDelegateEvent);
  return {
    ...base,
    title: `T${'<&>'.repeat(400)}`,
    summary: `S ${'x<y&z '.repeat(3_000)}`,
    fields: Array.from({ length: 40 }, (_, i) => ({ label: `Field <${i}> ${'L'.repeat(190)}`, value: `${'v&'.repeat(900)}` })),
  };
}

/** The notify queue's message of `channel` (a `type`) marked broken at `since` for `reason`, as the channel worker queues it. */
export function channelBrokenMessage(account: string, channel: string, type: ChannelType, since: number, reason: string): ChannelBrokenMessage {
  return channelBrokenMessageSchema.parse({
    kind: 'channel-broken',
    eventId: channelBrokenEventId(channel, since),
    account,
    at: since,
    channel: { name: channel, type },
    reason,
  });
}
