import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resultForNotice, type DecisionResult } from '../../../functions/domain/decisionResult';
import { firingForNotice, firingKeys, type KillSwitchFiring } from '../../../functions/domain/killSwitchFiring';
import { MAX_NOTICE_DELEGATES } from '../../../functions/domain/protectiveDecision';
import { notifyMessageSchema, type NotifyEvent } from '../../../functions/messages/notifyMessage';
import { MANY_UNITS_TEXT_CHARS } from '../../../functions/services/revocation/announceDecisionSettled';
import { ACCOUNT, emailOf, killSwitchFiredEvent, killSwitchRevokedEvent, noticeOf } from '../../support/channels/noticeFixtures';

/** SQS's message size limit (the queues are created with its default). */
const QUEUE_MESSAGE_BYTES = 256 * 1024;

/** A chain-given key name at its longest (200 characters). */
const longName = (i: number) => `bot-${i}-${'n'.repeat(190)}`.slice(0, 200);

const keys = (n: number) => Array.from({ length: n }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}` as `0x${string}`);

/** A firing as the kill switch decides it on an account whose keys are, in this order: kept by the account, announced, revoked; and web sessions kept. */
function firingOf(
  counts: { keepDelegate: number; announced: number; acted: number; web: number },
  outcome: 'queued' | 'protection-off' = 'queued',
): KillSwitchFiring {
  if (killSwitchFiredEvent.kind !== 'kill-switch') throw new Error('fixture');
  const all = keys(counts.keepDelegate + counts.announced + counts.acted + counts.web);
  const keepDelegate = all.slice(0, counts.keepDelegate);
  const requested = all.slice(0, counts.keepDelegate + counts.announced + counts.acted);
  const acted = requested.slice(counts.keepDelegate + counts.announced);
  return {
    ...killSwitchFiredEvent.firing,
    requested,
    keptKeys: keepDelegate,
    keptWebSessions: all.slice(requested.length),
    names: all.map((address, i) => ({ address, name: longName(i) })),
    action: { kind: 'requested', outcome: outcome === 'queued' ? { kind: 'queued', decisionId: 'd-fired', delegates: acted } : { kind: 'protection-off' } },
  };
}

const firingEvent = (firing: KillSwitchFiring): NotifyEvent => {
  if (killSwitchFiredEvent.kind !== 'kill-switch') throw new Error('fixture');
  return { ...killSwitchFiredEvent, firing };
};

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
        name: longName(i),
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
    const event = firingEvent(firingOf({ keepDelegate: 0, announced: 0, acted: MAX_NOTICE_DELEGATES, web: 0 }));
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
    expect(email.text.replace(/\s+/g, ' ')).toMatch(/and \d+ more keys \("sentinel delegates list 0x/);
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

describe(`the kill switch on an account with more than ${MAX_NOTICE_DELEGATES} keys`, () => {
  it('its firing notice is one valid queue message that counts every key it revokes and keeps', () => {
    const event = firingEvent(firingForNotice(firingOf({ keepDelegate: 3, announced: 2, acted: 345, web: 250 })));
    expect(notifyMessageSchema.safeParse(event).success).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(event))).toBeLessThan(QUEUE_MESSAGE_BYTES);
    const notice = noticeOf(event);
    expect(notice.title).toBe('Kill switch fired: 345 keys being revoked');
    const text = emailOf(event).text.replace(/\s+/g, ' ');
    expect(text).toContain(`This notice names ${MAX_NOTICE_DELEGATES} of the 345 keys; the other ${345 - MAX_NOTICE_DELEGATES} are treated the same way.`);
    // The kept line names the first kept keys with their reason and counts every other kept key (3 + 2 + 250 in all).
    expect(text).toMatch(/Kept, not revoked: "bot-0-n+" \(0x0+1\) \(--keep-delegate\)/);
    const named = (text.match(/\((--keep-delegate|announced|web session)\)/g) ?? []).length;
    const counted = Number(/and (\d+) more keys \(the account page lists each\)/.exec(text)?.[1]);
    expect(named + counted).toBe(255);
  });

  it('a firing that revoked nothing still names the keys it would have revoked and counts the rest', () => {
    const event = firingEvent(firingForNotice(firingOf({ keepDelegate: 0, announced: 0, acted: 260, web: 0 }, 'protection-off')));
    expect(notifyMessageSchema.safeParse(event).success).toBe(true);
    const text = emailOf(event).text.replace(/\s+/g, ' ');
    expect(noticeOf(event).title).toBe('Kill switch fired, keys NOT revoked');
    expect(text).toContain(`This notice names ${MAX_NOTICE_DELEGATES} of the 260 keys; the other 60 are treated the same way.`);
  });

  it('cutting the lists never changes why a listed key was kept, and counts every key it leaves out (any mix of keys)', () => {
    const count = fc.integer({ min: 0, max: 450 });
    fc.assert(
      fc.property(fc.record({ keepDelegate: count, announced: count, acted: count, web: count }), (counts) => {
        const full = firingOf(counts);
        const cut = firingForNotice(full);
        expect(killSwitchFiringSchemaParses(cut)).toBe(true);
        const before = firingKeys(full);
        const after = firingKeys(cut);
        const why = new Map(before.kept.map((k) => [k.address, k.because]));
        for (const k of after.kept) expect(why.get(k.address)).toBe(k.because);
        for (const k of after.acted) expect(why.has(k)).toBe(false);
        expect(after.acted.length + (cut.unlisted?.acted ?? 0)).toBe(before.acted.length);
        expect(after.kept.length + (cut.unlisted?.kept ?? 0)).toBe(before.kept.length);
      }),
      { numRuns: 60 },
    );
  });

  it('a firing within the bounds is carried as it is', () => {
    const firing = firingOf({ keepDelegate: 1, announced: 1, acted: 150, web: 48 });
    expect(firingForNotice(firing)).toBe(firing);
  });
});

function killSwitchFiringSchemaParses(firing: KillSwitchFiring): boolean {
  return notifyMessageSchema.safeParse(firingEvent(firing)).success;
}

describe(`the result of a decision on more than ${MAX_NOTICE_DELEGATES} keys`, () => {
  /** `revoked` keys revoked, then `failed` that failed; `left` keys still listed. */
  function settled(revoked: number, failed: number, left: number): Omit<DecisionResult, 'unlisted'> {
    if (killSwitchRevokedEvent.kind !== 'decision-result') throw new Error('fixture');
    const all = keys(revoked + failed);
    return {
      ...killSwitchRevokedEvent.result,
      units: all.map((address, i) => ({
        address,
        name: `bot-${i}`,
        status: i < revoked ? 'revoked' : 'failed',
        refusal: null,
        text: i < revoked ? 'revoked' : 'the chain refused the transaction',
      })),
      left: keys(left).map((address) => ({ address, name: null, isWebClient: false })),
    };
  }
  const resultEvent = (result: DecisionResult): NotifyEvent => {
    if (killSwitchRevokedEvent.kind !== 'decision-result') throw new Error('fixture');
    return { ...killSwitchRevokedEvent, result };
  };

  it('is one valid notice that lists the keys not revoked first and counts every key', () => {
    const result = resultForNotice(settled(330, 12, 230));
    expect(result.units.slice(0, 12).every((u) => u.status === 'failed')).toBe(true);
    expect(result.units).toHaveLength(MAX_NOTICE_DELEGATES);
    expect(result.unlisted).toEqual({ revoked: 142, gone: 0, refused: 0, failed: 0, left: 30 });
    const event = resultEvent(result);
    expect(notifyMessageSchema.safeParse(event).success).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(event))).toBeLessThan(QUEUE_MESSAGE_BYTES);
    const notice = noticeOf(event);
    expect(notice.title).toBe('Kill switch: 330 of 342 keys revoked, 12 NOT revoked');
    expect(notice.summary).toContain(': 330 revoked, 12 not.');
    const text = emailOf(event).text.replace(/\s+/g, ' ');
    expect(text).toContain(`This notice names ${MAX_NOTICE_DELEGATES} of the decision's 342 keys, those not revoked first; the other 142 were all revoked.`);
    // Every key still listed is named or counted: the 30 the result leaves out too.
    const named = (/Still able to trade this account: (.*?) and (\d+) more keys/.exec(text) ?? []) as string[];
    expect((named[1] ?? '').split(', ').length + Number(named[2])).toBe(230);
  });

  it('a result within the bounds is carried as it is, in its order', () => {
    const result = settled(150, 3, 10);
    expect(resultForNotice(result)).toBe(result);
  });
});
