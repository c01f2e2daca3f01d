import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, localDate } from '../../../functions/domain/localTime';
import { claimReport } from '../../../functions/domain/reportClaim';
import { reportInstant } from '../../../functions/domain/reportPlan';

const utc = (iso: string) => Date.parse(iso);
const MINUTE = 60_000;

/** Claims day after day the way the per-minute dispatch does: at each claim's due minute, storing its `nextReportAt`. */
function claimDays(reportAt: string, timezone: string, firstDue: number, days: number) {
  const claims: { reportDate: string; dueAt: number }[] = [];
  let nextReportAt = firstDue;
  for (let i = 0; i < days; i++) {
    const claim = claimReport({ reportAt, timezone, nextReportAt }, nextReportAt);
    if (claim.kind !== 'claim') throw new Error(`day ${i}: ${claim.kind}`);
    claims.push({ reportDate: claim.reportDate, dueAt: claim.dueAt });
    nextReportAt = claim.nextReportAt;
  }
  return claims;
}

describe('claimReport: the due minute', () => {
  it('claims the report in its due minute and schedules the next local day', () => {
    const due = utc('2025-03-04T07:00:00Z'); // 08:00 in Berlin
    expect(claimReport({ reportAt: '08:00', timezone: 'Europe/Berlin', nextReportAt: due }, due + 20_000)).toEqual({
      kind: 'claim',
      reportDate: '2025-03-04',
      dueAt: due,
      nextReportAt: utc('2025-03-05T07:00:00Z'),
    });
  });

  it('never claims early: a millisecond before the due minute nothing is due', () => {
    const due = utc('2025-03-04T07:00:00Z');
    expect(claimReport({ reportAt: '08:00', timezone: 'Europe/Berlin', nextReportAt: due }, due - 1)).toEqual({ kind: 'not-due' });
  });

  it.each([
    ['Asia/Kolkata', '08:30', '2025-06-01T03:00:00Z'], // +05:30
    ['Asia/Kathmandu', '08:15', '2025-06-01T02:30:00Z'], // +05:45
    ['Australia/Eucla', '07:00', '2025-06-01T22:15:00Z'], // +08:45, the day before in UTC
    ['Pacific/Chatham', '09:00', '2025-05-31T20:15:00Z'], // +12:45 in winter
    ['America/St_Johns', '06:45', '2025-06-01T09:15:00Z'], // -02:30 in summer
  ])('is the local report time in %s (half- and quarter-hour offsets)', (timezone, reportAt, dueIso) => {
    const dueAt = utc(dueIso);
    const claim = claimReport({ reportAt, timezone, nextReportAt: dueAt }, dueAt);
    expect(claim).toMatchObject({ kind: 'claim', dueAt });
    expect(claim.kind === 'claim' && claim.reportDate).toBe(localDate(dueAt, timezone));
  });

  it('follows Berlin across both DST changes: 08:00 local every day, 23 and 25 hours apart on the change days', () => {
    const spring = claimDays('08:00', 'Europe/Berlin', utc('2025-03-29T07:00:00Z'), 3);
    expect(spring.map((c) => new Date(c.dueAt).toISOString())).toEqual(['2025-03-29T07:00:00.000Z', '2025-03-30T06:00:00.000Z', '2025-03-31T06:00:00.000Z']);
    const autumn = claimDays('08:00', 'Europe/Berlin', utc('2025-10-25T06:00:00Z'), 3);
    expect(autumn.map((c) => new Date(c.dueAt).toISOString())).toEqual(['2025-10-25T06:00:00.000Z', '2025-10-26T07:00:00.000Z', '2025-10-27T07:00:00.000Z']);
  });

  it('sends a report time inside the spring-forward gap at the end of the gap, and a repeated time once, at its first occurrence', () => {
    const [gapDay] = claimDays('02:30', 'Europe/Berlin', utc('2025-03-30T01:00:00Z'), 1);
    expect(gapDay).toEqual({ reportDate: '2025-03-30', dueAt: utc('2025-03-30T01:00:00Z') }); // 03:00 CEST
    const fallBack = claimDays('02:30', 'Europe/Berlin', utc('2025-10-26T00:30:00Z'), 2);
    expect(fallBack).toEqual([
      { reportDate: '2025-10-26', dueAt: utc('2025-10-26T00:30:00Z') }, // the first 02:30 (CEST)
      { reportDate: '2025-10-27', dueAt: utc('2025-10-27T01:30:00Z') },
    ]);
  });

  it('follows Lord Howe (a half-hour DST shift) and New York across their changes', () => {
    // 4 October 09:00 at +10:30, then 5 October 09:00 at +11:00 (the clocks went from 02:00 to 02:30).
    const lordHowe = claimDays('09:00', 'Australia/Lord_Howe', utc('2025-10-03T22:30:00Z'), 2);
    expect(lordHowe.map((c) => c.dueAt)).toEqual([utc('2025-10-03T22:30:00Z'), utc('2025-10-04T22:00:00Z')]);
    const newYork = claimDays('08:00', 'America/New_York', utc('2025-03-08T13:00:00Z'), 2);
    expect(newYork.map((c) => c.dueAt)).toEqual([utc('2025-03-08T13:00:00Z'), utc('2025-03-09T12:00:00Z')]);
  });

  it("after a missed day sends only today's report, in its due minute; before today's time it only moves the schedule", () => {
    const stale = utc('2025-03-02T07:00:00Z');
    expect(claimReport({ reportAt: '08:00', timezone: 'Europe/Berlin', nextReportAt: stale }, utc('2025-03-04T06:00:00Z'))).toEqual({
      kind: 'reschedule',
      nextReportAt: utc('2025-03-04T07:00:00Z'),
    });
    expect(claimReport({ reportAt: '08:00', timezone: 'Europe/Berlin', nextReportAt: stale }, utc('2025-03-04T07:00:30Z'))).toMatchObject({
      kind: 'claim',
      reportDate: '2025-03-04',
      dueAt: utc('2025-03-04T07:00:00Z'),
    });
  });

  it('in any zone and at any time, claims exactly one report per local day, at the local report time, never before it', () => {
    const zones = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/St_Johns', 'UTC'];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: utc('2024-01-01T00:00:00Z'), max: utc('2026-12-31T00:00:00Z') }),
        (timezone, hour, minute, start) => {
          const reportAt = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
          const today = localDate(start, timezone);
          const claims = claimDays(reportAt, timezone, reportInstant(today, reportAt, timezone), 4);
          claims.forEach((c, i) => {
            expect(c.reportDate).toBe(addDays(today, i));
            expect(c.dueAt % MINUTE).toBe(0);
            expect(localDate(c.dueAt, timezone)).toBe(c.reportDate);
            // A minute before its due minute the report is not claimable.
            expect(claimReport({ reportAt, timezone, nextReportAt: c.dueAt }, c.dueAt - MINUTE).kind).toBe('not-due');
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});
