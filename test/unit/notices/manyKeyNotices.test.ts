import { describe, expect, it } from 'vitest';
import { MAX_NOTICE_DELEGATES } from '../../../functions/domain/protectiveDecision';
import { notifyMessageSchema, type NotifyEvent } from '../../../functions/messages/notifyMessage';
import { MANY_UNITS_TEXT_CHARS } from '../../../functions/services/revocation/announceDecisionSettled';
import { ACCOUNT, emailOf, killSwitchFiredEvent, killSwitchRevokedEvent, noticeOf } from '../../support/channels/noticeFixtures';

/** SQS's message size limit (the queues are created with its default). */
const QUEUE_MESSAGE_BYTES = 256 * 1024;

const keys = (n: number) => Array.from({ length: n }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}` as `0x${string}`);

/** The kill switch fired on an account with `n` keys, every one queued for revocation, each with a long chain-given name. */
function firedWith(n: number): NotifyEvent {
  if (killSwitchFiredEvent.kind !== 'kill-switch') throw new Error('fixture');
  const all = keys(n);
  return {
    ...killSwitchFiredEvent,
    firing: {
      ...killSwitchFiredEvent.firing,
      requested: all,
      names: all.map((address, i) => ({ address, name: `bot-${i}-${'n'.repeat(190)}`.slice(0, 200) })),
      action: { kind: 'requested', outcome: { kind: 'queued', decisionId: 'd-fired', delegates: all } },
    },
  };
}

/** Its result: every key failed, its words as long as the result carries them for so many keys, and every key still listed. */
function resultWith(n: number): NotifyEvent {
  if (killSwitchRevokedEvent.kind !== 'decision-result') throw new Error('fixture');
  const all = keys(n);
  return {
    ...killSwitchRevokedEvent,
    result: {
      ...killSwitchRevokedEvent.result,
      units: all.map((address, i) => ({
        address,
        name: `bot-${i}-${'n'.repeat(190)}`.slice(0, 200),
        status: 'failed',
        refusal: null,
        text: 'x'.repeat(MANY_UNITS_TEXT_CHARS),
      })),
      left: all.map((address) => ({ address, name: 'n'.repeat(200), isWebClient: false })),
    },
  };
}

describe(`the kill switch's notices on an account with up to ${MAX_NOTICE_DELEGATES} keys`, () => {
  it('its firing is a valid message that fits one queue message, and its notice and email count every key', () => {
    const event = firedWith(MAX_NOTICE_DELEGATES);
    expect(notifyMessageSchema.safeParse(event).success).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(event))).toBeLessThan(QUEUE_MESSAGE_BYTES);
    expect(noticeOf(event).title).toBe(`Kill switch fired: ${MAX_NOTICE_DELEGATES} keys being revoked`);
    expect(emailOf(event).text).toContain(`bot-${MAX_NOTICE_DELEGATES - 1}-`);
  });

  it('its result is a valid message that fits one queue message, and its email lists every key', () => {
    const event = resultWith(MAX_NOTICE_DELEGATES);
    expect(notifyMessageSchema.safeParse(event).success).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(event))).toBeLessThan(QUEUE_MESSAGE_BYTES);
    const email = emailOf(event);
    for (let i = 0; i < MAX_NOTICE_DELEGATES; i++) expect(email.text).toContain(`bot-${i}-`);
    // The keys still listed, named as far as one paragraph holds, the others counted.
    expect(email.text.replace(/\s+/g, ' ')).toMatch(/and \d+ keys more \("sentinel delegates list 0x/);
    expect(noticeOf(event).account.address).toBe(ACCOUNT);
  });
});

describe('the kill switch on an account that keeps many web sessions', () => {
  it('names the kept keys as far as one line holds and counts the others, so its email still renders', () => {
    if (killSwitchFiredEvent.kind !== 'kill-switch') throw new Error('fixture');
    const sessions = keys(40);
    const event: NotifyEvent = {
      ...killSwitchFiredEvent,
      firing: {
        ...killSwitchFiredEvent.firing,
        keptWebSessions: sessions,
        names: sessions.map((address, i) => ({ address, name: `browser session ${i} of the desk` })),
      },
    };
    const text = emailOf(event).text.replace(/\s+/g, ' ');
    expect(text).toContain('Kept, not revoked: "browser session 0 of the desk"');
    expect(text).toMatch(/and \d+ more keys \(the account page lists each\)\./);
  });
});
