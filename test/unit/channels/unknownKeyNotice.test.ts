import { describe, expect, it } from 'vitest';
import type { DelegateProtection } from '../../../functions/domain/delegateProtection';
import { notifyMessageSchema, type NotifyMessage } from '../../../functions/messages/notifyMessage';
import { presentNotice } from '../../../functions/notices/presentNotice';
import { alertNoticeInput, renderedAlert } from '../../support/channels/noticeFixtures';

const ACCOUNT = '0x52908400098527886E0F7030069857D2E4169EE7';
const KEY = '0x00000000000000000000000000000000000A11cE';
const AT = Date.UTC(2030, 0, 7, 9);

function message(protection: DelegateProtection, isWebClient = false): NotifyMessage {
  return notifyMessageSchema.parse({
    eventId: `delegate:${ACCOUNT}:${KEY}:1:new`,
    account: ACCOUNT,
    at: AT,
    kind: 'new-delegate',
    delegate: { address: KEY, expiryMs: null, name: 'ghost <b>', isWebClient },
    firstSeenAt: AT,
    protection,
  });
}

const noticeCtx = alertNoticeInput(ACCOUNT, null);
const rendered = (m: NotifyMessage) => renderedAlert(m, 'new-delegate', null);

const queued: DelegateProtection = {
  verdict: 'unknown',
  mode: 'api-keys',
  webSession: false,
  repeatWithinDay: false,
  action: { kind: 'requested', outcome: { kind: 'queued', decisionId: 'd1', delegates: [KEY] } },
};

describe('unknown-key notices, as email and in Slack', () => {
  it('a revoked unknown key: says so, why, how to add it again and what stays; keeps its revoke button, in case the signer cannot', () => {
    const { mail, slack, slackText } = rendered(message(queued));
    expect(mail.subject).toContain('Unknown API key revoked automatically');
    for (const body of [mail.text, mail.html, slackText]) {
      expect(body).toContain('revoked automatically');
      expect(body).toContain('no one announced it');
      expect(body).toContain(`sentinel delegates expect ${ACCOUNT} ${KEY}`);
      expect(body).toMatch(/resting orders, TWAPs and open positions stay/);
      expect(body).not.toContain('move the funds');
    }
    // Being revoked is not revoked yet: the key's own link stays, so a person can act if the signer could not.
    for (const body of [mail.html, mail.text, slackText]) expect(body).toContain('https://sentinel.example/r/abc');
    expect(mail.text).toContain('if the result says it was not revoked');
    expect(JSON.stringify(slack.blocks.filter((b) => b.type === 'actions'))).toContain('Revoke');
    // Text others chose is escaped in each medium.
    expect(mail.html).toContain('ghost &lt;b&gt;');
    expect(slackText).toContain('ghost &lt;b&gt;');
  });

  it('not revoked because protection is off stage-wide: says why, and offers the revoke link', () => {
    const off: DelegateProtection = { ...queued, action: { kind: 'requested', outcome: { kind: 'protection-off' } } };
    const { mail, slack, slackText } = rendered(message(off));
    expect(mail.subject).toContain('Unknown API key NOT revoked');
    for (const body of [mail.text, slackText]) expect(body).toContain('automatic protection is off for this deployment');
    expect(mail.text).toContain('https://sentinel.example/r/abc');
    expect(slack.blocks.find((b) => b.type === 'actions')).toBeDefined();
  });

  it('every outcome and action reads differently', () => {
    const outcomes = [
      { kind: 'dry-run', decisionId: 'd', delegates: [KEY] },
      { kind: 'not-armed' },
      { kind: 'capped', cap: '20 unknown-key revocations in 24 hours' },
      { kind: 'breaker-open', firedAccounts: 6 },
      { kind: 'nothing-to-revoke' },
    ] as const;
    const texts = [
      ...outcomes.map((outcome) => rendered(message({ ...queued, action: { kind: 'requested', outcome } })).mail.text),
      rendered(message({ ...queued, action: { kind: 'not-set-up' } })).mail.text,
      rendered(message({ ...queued, webSession: true, action: { kind: 'kept-web-session' } }, true)).mail.text,
    ];
    expect(new Set(texts).size).toBe(texts.length);
    expect(texts[2]).toContain('20 unknown-key revocations in 24 hours');
    expect(texts[3]).toContain('6 accounts fired within the hour');
    expect(texts[5]).toContain('not set up');
    expect(texts[6]).toContain('marked as a web session, so it was kept');
  });

  it('a second unknown key within a day says to move funds, first', () => {
    const { mail, slack } = rendered(message({ ...queued, repeatWithinDay: true, withinDay: 2 }));
    expect(mail.subject).toContain('move funds');
    expect(mail.text).toMatch(/second unknown key within a day[\s\S]*withdraw funds[\s\S]*Move the funds/);
    expect(mail.text.indexOf('Move the funds')).toBeLessThan(mail.text.indexOf('It was revoked automatically'));
    expect(slack.text).toContain('Move the funds');
  });

  it('names which unknown key within a day it is: the third says third, the first of several at once says so', () => {
    const subject = (withinDay: number | undefined) =>
      rendered(message({ ...queued, repeatWithinDay: true, ...(withinDay === undefined ? {} : { withinDay }) })).mail;
    const third = subject(3);
    expect(third.subject).toContain('third unknown key within a day, move funds');
    expect(third.text).toContain('This is the third unknown key within a day: someone else likely holds the owner key');
    expect(third.text).not.toContain('second');
    expect(subject(12).subject).toContain('12th unknown key within a day');
    expect(subject(22).subject).toContain('22nd unknown key within a day');
    expect(subject(1).text).toContain('Several unknown keys appeared at once: someone else likely holds the owner key');
    // A message queued before the place was kept.
    expect(subject(undefined).text).toContain('Another unknown key appeared within a day');
  });

  it('an announced key is noticed as expected, without paging', () => {
    const m = message({ verdict: 'announced', expiresAt: AT + 3_600_000 });
    const { mail } = rendered(m);
    expect(mail.subject).toContain('Expected delegate added');
    expect(mail.text).toContain('appeared as announced');
    const notice = presentNotice(m, noticeCtx);
    expect(notice.severity).toBe('info');
    expect(notice.incident).toBeNull();
    expect(notice.category).toBe('security');
  });
});

describe('a new web session is always announced as a security notice that pages', () => {
  const web = (protection: DelegateProtection | undefined): NotifyMessage =>
    notifyMessageSchema.parse({
      eventId: `delegate:${ACCOUNT}:${KEY}:1:new`,
      account: ACCOUNT,
      at: AT,
      kind: 'new-delegate',
      delegate: { address: KEY, expiryMs: null, name: 'browser', isWebClient: true },
      firstSeenAt: AT,
      ...(protection === undefined ? {} : { protection }),
    });
  const cases: [string, DelegateProtection | undefined][] = [
    ['--revoke-unknown off (no protection on the message)', undefined],
    ['api-keys: kept', { verdict: 'unknown', mode: 'api-keys', webSession: true, repeatWithinDay: false, action: { kind: 'kept-web-session' } }],
    [
      'all: revoked',
      {
        verdict: 'unknown',
        mode: 'all',
        webSession: true,
        repeatWithinDay: false,
        action: { kind: 'requested', outcome: { kind: 'queued', decisionId: 'd-0123456789abcdef', delegates: [KEY] } },
      },
    ],
    [
      'all, protection off stage-wide',
      { verdict: 'unknown', mode: 'all', webSession: true, repeatWithinDay: false, action: { kind: 'requested', outcome: { kind: 'protection-off' } } },
    ],
  ];
  it.each(cases)('%s', (_, protection) => {
    const notice = presentNotice(web(protection), noticeCtx);
    expect(notice.category).toBe('security');
    expect(notice.severity).toBe('critical');
    expect(notice.incident).toEqual({ key: `delegate:${ACCOUNT.toLowerCase()}:${KEY.toLowerCase()}`, action: 'trigger' });
  });
});
