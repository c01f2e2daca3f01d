import { describe, expect, it } from 'vitest';
import { checkDelegates, type ObservedDelegate } from '../../../functions/domain/delegateAlerts';
import { delegateDigest, formatDelegateMark, nextNoticeAt, parseDelegateMark, unchangedSinceMark } from '../../../functions/domain/delegateMark';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 5);
const A = '0x1111111111111111111111111111111111111111';
const B = '0x2222222222222222222222222222222222222222';
const bot = (over: Partial<ObservedDelegate> = {}): ObservedDelegate => ({ address: A, expiryMs: null, name: 'bot', isWebClient: false, ...over });

/** The mark a full check at `now` would store for `current` (the account's first observation). */
function markAfterCheck(current: readonly ObservedDelegate[], now: number, warnDays = [14, 7, 3, 1]): string {
  const { next } = checkDelegates({ account: B, previous: new Map(), current, warnDays, now, firstObservation: true });
  return formatDelegateMark({ digest: delegateDigest(current), recheckAt: nextNoticeAt(next, warnDays) });
}

describe('delegate watch mark', () => {
  it('the digest ignores order and duplicates, and changes with any field a check compares', () => {
    const other = bot({ address: B, name: 'other' });
    expect(delegateDigest([bot(), other])).toBe(delegateDigest([other, bot(), bot()]));
    const base = delegateDigest([bot()]);
    for (const changed of [bot({ expiryMs: T0 }), bot({ name: 'renamed' }), bot({ isWebClient: true }), bot({ address: B })]) {
      expect(delegateDigest([changed])).not.toBe(base);
    }
    expect(delegateDigest([])).not.toBe(base);
  });

  it('an unchanged list skips the check until the next warn-day step, then not', () => {
    const expiring = bot({ expiryMs: T0 + 10 * DAY });
    const mark = markAfterCheck([expiring], T0); // 14-day step covered; the 7-day one is next
    expect(parseDelegateMark(mark)?.recheckAt).toBe(T0 + 3 * DAY);
    expect(unchangedSinceMark(mark, [expiring], T0 + 3 * DAY - 1)).toBe(true);
    expect(unchangedSinceMark(mark, [expiring], T0 + 3 * DAY)).toBe(false);
    expect(unchangedSinceMark(mark, [expiring, bot({ address: B })], T0 + DAY)).toBe(false);
    expect(unchangedSinceMark(mark, [], T0 + DAY)).toBe(false);
  });

  it('the expiry itself is a notice time; once it was sent, nothing is due', () => {
    const soon = bot({ expiryMs: T0 + DAY / 2 }); // every step already reached
    expect(parseDelegateMark(markAfterCheck([soon], T0))?.recheckAt).toBe(T0 + DAY / 2);
    const expired = bot({ expiryMs: T0 - DAY });
    expect(parseDelegateMark(markAfterCheck([expired], T0))?.recheckAt).toBeNull();
    expect(parseDelegateMark(markAfterCheck([bot()], T0))?.recheckAt).toBeNull();
  });

  it('no mark, or one not understood, never skips a check', () => {
    expect(unchangedSinceMark(null, [], T0)).toBe(false);
    expect(unchangedSinceMark('v0:-:abc', [], T0)).toBe(false);
    expect(unchangedSinceMark(markAfterCheck([], T0), [], T0 + 365 * DAY)).toBe(true);
  });
});
