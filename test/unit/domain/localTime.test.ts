import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, canonicalTimeZone, isValidTimeZone, localDate, localDayBounds, wallClockToInstant } from '../../../functions/domain/localTime';

const HOUR = 3_600_000;
const utc = (iso: string) => Date.parse(iso);
const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'UTC', 'Asia/Kolkata'];

/** Wall clock read independently of the code under test. */
function wall(t: number, timeZone: string): string {
  return new Date(t).toLocaleString('sv-SE', { timeZone, hour12: false }).slice(0, 16);
}

describe('isValidTimeZone / canonicalTimeZone', () => {
  it('accepts IANA names in any case and rejects the rest', () => {
    for (const z of ['Europe/Berlin', 'UTC', 'america/new_york', 'Australia/Lord_Howe']) expect(isValidTimeZone(z)).toBe(true);
    for (const z of ['', 'Mars/Olympus', '+01:00', 'Europe/Berlin ']) expect(isValidTimeZone(z)).toBe(false);
    expect(canonicalTimeZone('europe/berlin')).toBe('Europe/Berlin');
  });
});

describe('localDate / addDays', () => {
  it('gives the calendar date in the zone', () => {
    const t = utc('2024-06-30T22:30:00Z');
    expect(localDate(t, 'UTC')).toBe('2024-06-30');
    expect(localDate(t, 'Europe/Berlin')).toBe('2024-07-01');
    expect(localDate(t, 'America/New_York')).toBe('2024-06-30');
  });

  it('adds days across months and leap years, and rejects non-dates', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2023-12-31', 1)).toBe('2024-01-01');
    expect(() => addDays('2023-02-29', 1)).toThrow(/not a calendar date/);
    expect(() => addDays('2024-3-1', 1)).toThrow(RangeError);
  });
});

describe('localDayBounds', () => {
  const hours = (b: { startMs: number; endMs: number }) => (b.endMs - b.startMs) / HOUR;

  it('Europe/Berlin: 23 h in spring, 25 h in autumn, 24 h otherwise', () => {
    expect(localDayBounds('2024-03-31', 'Europe/Berlin')).toEqual({ startMs: utc('2024-03-30T23:00:00Z'), endMs: utc('2024-03-31T22:00:00Z') });
    expect(localDayBounds('2024-10-27', 'Europe/Berlin')).toEqual({ startMs: utc('2024-10-26T22:00:00Z'), endMs: utc('2024-10-27T23:00:00Z') });
    expect(hours(localDayBounds('2024-07-14', 'Europe/Berlin'))).toBe(24);
  });

  it('America/New_York: 23 h and 25 h days', () => {
    expect(localDayBounds('2024-03-10', 'America/New_York')).toEqual({ startMs: utc('2024-03-10T05:00:00Z'), endMs: utc('2024-03-11T04:00:00Z') });
    expect(localDayBounds('2024-11-03', 'America/New_York')).toEqual({ startMs: utc('2024-11-03T04:00:00Z'), endMs: utc('2024-11-04T05:00:00Z') });
  });

  it('Australia/Lord_Howe: a 30-minute shift gives 23.5 h and 24.5 h days', () => {
    expect(localDayBounds('2024-10-06', 'Australia/Lord_Howe')).toEqual({ startMs: utc('2024-10-05T13:30:00Z'), endMs: utc('2024-10-06T13:00:00Z') });
    expect(localDayBounds('2024-04-07', 'Australia/Lord_Howe')).toEqual({ startMs: utc('2024-04-06T13:00:00Z'), endMs: utc('2024-04-07T13:30:00Z') });
  });

  it('contains every instant of its date, and consecutive days tile', () => {
    const instant = fc.integer({ min: utc('2020-01-01T00:00:00Z'), max: utc('2030-12-31T00:00:00Z') });
    fc.assert(
      fc.property(instant, fc.constantFrom(...ZONES), (t, zone) => {
        const date = localDate(t, zone);
        const day = localDayBounds(date, zone);
        expect(day.startMs).toBeLessThanOrEqual(t);
        expect(t).toBeLessThan(day.endMs);
        expect(localDayBounds(addDays(date, 1), zone).startMs).toBe(day.endMs);
        expect(localDate(day.startMs, zone)).toBe(date);
        expect(localDate(day.endMs - 1, zone)).toBe(date);
      }),
      { numRuns: 200 },
    );
  });
});

describe('wallClockToInstant', () => {
  it('maps a time in a spring-forward gap to the end of the gap', () => {
    expect(wallClockToInstant('2024-03-31', 2, 30, 'Europe/Berlin')).toBe(utc('2024-03-31T01:00:00Z'));
    expect(wallClockToInstant('2024-03-10', 2, 15, 'America/New_York')).toBe(utc('2024-03-10T07:00:00Z'));
    expect(wallClockToInstant('2024-10-06', 2, 15, 'Australia/Lord_Howe')).toBe(utc('2024-10-05T15:30:00Z'));
    expect(wall(utc('2024-10-05T15:30:00Z'), 'Australia/Lord_Howe')).toBe('2024-10-06 02:30');
  });

  it('maps a repeated time on a fall-back day to its first occurrence', () => {
    expect(wallClockToInstant('2024-10-27', 2, 30, 'Europe/Berlin')).toBe(utc('2024-10-27T00:30:00Z'));
    expect(wallClockToInstant('2024-11-03', 1, 30, 'America/New_York')).toBe(utc('2024-11-03T05:30:00Z'));
    expect(wallClockToInstant('2024-04-07', 1, 45, 'Australia/Lord_Howe')).toBe(utc('2024-04-06T14:45:00Z'));
  });

  it('reads back as the requested wall clock whenever that time exists', () => {
    const date = fc.integer({ min: 0, max: 4000 }).map((n) => addDays('2020-01-01', n));
    fc.assert(
      fc.property(date, fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.constantFrom(...ZONES), (d, h, m, zone) => {
        const t = wallClockToInstant(d, h, m, zone);
        const asked = `${d} ${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
        const read = wall(t, zone);
        // Either the wall clock shows the time asked for, or (in a gap) a later time on the same date
        // and the minute before reads before the time asked for.
        if (read !== asked) {
          expect(read > asked).toBe(true);
          expect(wall(t - 60_000, zone) < asked).toBe(true);
        }
        expect(read.slice(0, 10)).toBe(d);
        // first occurrence: one hour earlier the wall clock was not yet at that time
        expect(wall(t - HOUR, zone) < asked).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
