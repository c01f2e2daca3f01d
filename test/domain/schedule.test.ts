import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INTERVAL_MS, INTERVALS } from '../../functions/domain/interval';
import { DEFAULT_POLL_DELAY_MS, isDue, nextDueAt, selectDue } from '../../functions/domain/schedule';

describe('nextDueAt', () => {
  it('aligns to the interval boundary plus the delay', () => {
    const t = Date.parse('2024-05-01T10:17:42Z');
    expect(nextDueAt(t, '1h', 30_000)).toBe(Date.parse('2024-05-01T11:00:30Z'));
    expect(nextDueAt(t, '15m', 0)).toBe(Date.parse('2024-05-01T10:30:00Z'));
    expect(nextDueAt(t, '1d')).toBe(Date.parse('2024-05-02T00:00:00Z') + DEFAULT_POLL_DELAY_MS);
  });

  it('from a due time, gives the next one, exactly one interval later', () => {
    const due = Date.parse('2024-05-01T11:00:30Z');
    expect(nextDueAt(due, '1h', 30_000)).toBe(due + 3_600_000);
    expect(nextDueAt(due - 1, '1h', 30_000)).toBe(due);
  });

  it('is always after `after`, on a boundary + delay, and within one interval', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), fc.constantFrom(...INTERVALS), fc.integer({ min: 0, max: 59_999 }), (after, interval, delay) => {
        const next = nextDueAt(after, interval, delay);
        const step = INTERVAL_MS[interval];
        expect(next).toBeGreaterThan(after);
        expect(next - after).toBeLessThanOrEqual(step);
        expect((next - delay) % step).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it('rejects a delay outside [0, interval)', () => {
    expect(() => nextDueAt(0, '1m', 60_000)).toThrow(RangeError);
    expect(() => nextDueAt(0, '1h', -1)).toThrow(RangeError);
  });
});

describe('selectDue / isDue', () => {
  it('keeps the due items, oldest first, up to the limit', () => {
    const items = [{ id: 'a', nextDueAt: 30 }, { id: 'b', nextDueAt: 10 }, { id: 'c', nextDueAt: 50 }, { id: 'd', nextDueAt: 20 }];
    expect(selectDue(items, 30).map((i) => i.id)).toEqual(['b', 'd', 'a']);
    expect(selectDue(items, 30, 2).map((i) => i.id)).toEqual(['b', 'd']);
    expect(isDue(31, 30)).toBe(false);
  });
});
