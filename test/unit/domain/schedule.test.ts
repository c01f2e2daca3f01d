import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INTERVAL_MS, INTERVALS } from '../../../functions/domain/interval';
import {
  DEFAULT_POLL_DELAY_MS,
  intervalMinutes,
  lastSlotAt,
  latestSlot,
  nextSlotAt,
  phaseOf,
  PHASE_SPREAD_MINUTES,
  slotCadence,
  slotMinute,
  slotRanges,
  slotTime,
} from '../../../functions/domain/schedule';

const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

describe('phases and slots', () => {
  it('spreads accounts over the first minutes after each boundary, stably', () => {
    const phases = Array.from({ length: 200 }, (_, i) => phaseOf(address(i)));
    expect(new Set(phases).size).toBe(PHASE_SPREAD_MINUTES);
    expect(phaseOf(address(7).toUpperCase().replace('0X', '0x'))).toBe(phaseOf(address(7)));
  });

  it('the next regular poll is on the account phase plus the delay, within one interval', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), fc.constantFrom(...INTERVALS), fc.integer({ min: 0, max: 10_000 }), (after, interval, n) => {
        const a = address(n);
        const next = nextSlotAt(a, interval, after);
        expect(next).toBeGreaterThan(after);
        expect(next - after).toBeLessThanOrEqual(INTERVAL_MS[interval]);
        const minute = (next - DEFAULT_POLL_DELAY_MS) / 60_000;
        expect(Number.isInteger(minute)).toBe(true);
        expect(minute % intervalMinutes(interval)).toBe(phaseOf(a) % intervalMinutes(interval));
        expect(lastSlotAt(a, interval, next)).toBe(next);
        expect(lastSlotAt(a, interval, next - 1)).toBe(next - INTERVAL_MS[interval]);
      }),
      { numRuns: 300 },
    );
  });

  it('a 1h account polls at hh:0p:30, a 1d account at 00:0p:30 UTC', () => {
    const a = address(3);
    const p = phaseOf(a);
    expect(nextSlotAt(a, '1h', Date.parse('2026-11-24T10:17:00Z'))).toBe(Date.parse('2026-11-24T11:00:30Z') + p * 60_000);
    expect(nextSlotAt(a, '1d', Date.parse('2026-11-24T10:17:00Z'))).toBe(Date.parse('2026-11-25T00:00:30Z') + p * 60_000);
  });

  it('each slot of the finer of interval and watch is where the index puts the account', () => {
    expect(slotCadence('1h', '5m')).toBe('5m');
    expect(slotCadence('1m', '5m')).toBe('1m');
    expect(slotCadence('4h', null)).toBe('4h');
    for (let i = 0; i < 50; i++) expect(slotMinute(address(i), '1m')).toBe(0);
  });
});

describe('latestSlot and slotRanges: a dispatcher that handled minutes up to `after` runs at `upTo`', () => {
  it('finds exactly one slot per account when the gap spans its cadence, none twice over consecutive runs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e7 }),
        fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 30 }),
        fc.constantFrom(...INTERVALS),
        fc.integer({ min: 0, max: 4 }),
        (start, gaps, cadence, phase) => {
          // Runs at start+g1, start+g1+g2, ...: every slot in (start, end] is found by exactly the run that follows it.
          const step = intervalMinutes(cadence);
          let after = start;
          const found: number[] = [];
          for (const gap of gaps) {
            const upTo = after + gap;
            const x = latestSlot(phase, cadence, after, upTo);
            const expected = [];
            for (let m = after + 1; m <= upTo; m++) if ((((m - phase) % step) + step) % step === 0) expected.push(m);
            expect(x).toBe(expected.length > 0 ? expected[expected.length - 1] : null);
            const ranges = slotRanges(cadence, after, upTo);
            const inRange = (minute: number) => ranges === 'all' || ranges.some(([f, t]) => minute >= f && minute <= t);
            expect(inRange(phase % step)).toBe(expected.length > 0);
            if (x !== null) found.push(x);
            after = upTo;
          }
          expect(new Set(found).size).toBe(found.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('slot times are the minute plus the delay', () => {
    expect(slotTime(10)).toBe(600_000 + DEFAULT_POLL_DELAY_MS);
  });
});
