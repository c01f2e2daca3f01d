import { describe, expect, it } from 'vitest';
import { localDate, wallClockToInstant } from '../../../functions/domain/localTime';
import { nextReportAt, planExtraReport, planReport } from '../../../functions/domain/reportPlan';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface Case {
  zone: string;
  reportAt: string;
  /** A window around a DST change, and the covered day that is 23 or 25 hours long. */
  from: string;
  days: number;
  shortOrLongDay: string;
  dayHours: number;
}

const CASES: Case[] = [
  // Spring forward 02:00 → 03:00 on 2025-03-30: 02:30 does not exist that day.
  { zone: 'Europe/Berlin', reportAt: '02:30', from: '2025-03-27T00:00:00Z', days: 6, shortOrLongDay: '2025-03-30', dayHours: 23 },
  { zone: 'Europe/Berlin', reportAt: '08:00', from: '2025-10-23T00:00:00Z', days: 6, shortOrLongDay: '2025-10-26', dayHours: 25 },
  // Fall back 02:00 → 01:00 on 2025-11-02: 01:30 happens twice.
  { zone: 'America/New_York', reportAt: '01:30', from: '2025-10-30T12:00:00Z', days: 6, shortOrLongDay: '2025-11-02', dayHours: 25 },
  { zone: 'America/New_York', reportAt: '02:15', from: '2025-03-06T12:00:00Z', days: 6, shortOrLongDay: '2025-03-09', dayHours: 23 },
  // Lord Howe moves by 30 minutes: back 02:00 → 01:30 on 2025-04-06, forward 02:00 → 02:30 on 2025-10-05.
  { zone: 'Australia/Lord_Howe', reportAt: '01:45', from: '2025-04-02T12:00:00Z', days: 6, shortOrLongDay: '2025-04-06', dayHours: 24.5 },
  { zone: 'Australia/Lord_Howe', reportAt: '02:10', from: '2025-10-01T12:00:00Z', days: 6, shortOrLongDay: '2025-10-05', dayHours: 23.5 },
];

describe('planReport across DST changes', () => {
  it.each(CASES)('$zone at $reportAt: exactly one report per local day, run every 15 minutes', ({ zone, reportAt, from, days, shortOrLongDay, dayHours }) => {
    const start = Date.parse(from);
    const account = { address: '0xabc', reportAt, timezone: zone, nextReportAt: nextReportAt(start, reportAt, zone) };
    const sent: { at: number; reportDate: string; covered: string; hours: number }[] = [];
    for (let t = start; t < start + days * 24 * HOUR; t += 15 * MINUTE) {
      const plan = planReport(account, t, false);
      if (plan.kind !== 'send') continue;
      // A rerun at the same instant, before the schedule moved, plans the same report (same id).
      expect(planReport(account, t, false)).toEqual(plan);
      sent.push({ at: t, reportDate: plan.reportDate, covered: plan.period.localDate, hours: (plan.period.endMs - plan.period.startMs) / HOUR });
      expect(plan.eventId).toBe(`report:0xabc:${plan.reportDate}`);
      account.nextReportAt = plan.nextReportAt ?? Number.NaN;
    }
    const dates = sent.map((s) => s.reportDate);
    expect(new Set(dates).size).toBe(dates.length);
    expect(dates.length).toBeGreaterThanOrEqual(days - 1);
    for (let i = 1; i < dates.length; i++) {
      expect(Date.parse(dates[i]!) - Date.parse(dates[i - 1]!)).toBe(24 * HOUR);
    }
    for (const s of sent) {
      // Sent on its local date, at the first run at or after the local report time.
      expect(localDate(s.at, zone)).toBe(s.reportDate);
      const [hour, minute] = reportAt.split(':').map(Number);
      const due = wallClockToInstant(s.reportDate, hour!, minute!, zone);
      expect(s.at).toBeGreaterThanOrEqual(due);
      expect(s.at - due).toBeLessThan(15 * MINUTE);
    }
    const odd = sent.find((s) => s.covered === shortOrLongDay);
    expect(odd?.hours).toBe(dayHours);
    expect(sent.filter((s) => s.covered !== shortOrLongDay).every((s) => s.hours === 24)).toBe(true);
  });

  it('with force, plans an extra report of yesterday under the id of the regular report covering it (a day is sent once), and no schedule change when none is due', () => {
    const now = Date.parse('2025-03-04T12:00:00Z');
    const account = { address: '0xabc', reportAt: '08:00', timezone: 'Europe/Berlin', nextReportAt: Date.parse('2025-03-05T07:00:00Z') };
    expect(planReport(account, now, false)).toEqual({ kind: 'not-due', nextAt: account.nextReportAt, reschedule: false });
    const forced = planReport(account, now, true);
    // The report sent at 08:00 today covered 3 Mar under this id: a forced run sends that day to no one who had it.
    expect(forced).toMatchObject({
      kind: 'send',
      eventId: 'report:0xabc:2025-03-04',
      forced: true,
      copyAt: null,
      nextReportAt: null,
      reportDate: '2025-03-04',
    });
    expect(forced.kind === 'send' && forced.period).toMatchObject({ localDate: '2025-03-03', previousReportAt: Date.parse('2025-03-04T07:00:00Z') });
  });

  it('a copy sent again on request (--resend) has an id of its own, with when it was sent', () => {
    const now = Date.parse('2025-03-04T12:00:00Z');
    const copy = planExtraReport({ address: '0xabc', reportAt: '08:00', timezone: 'Europe/Berlin' }, now, true);
    expect(copy).toMatchObject({
      eventId: `report:0xabc:2025-03-04:copy:${now}`,
      copyAt: now,
      forced: true,
      nextReportAt: null,
      period: { localDate: '2025-03-03' },
    });
  });

  it('does not catch up a missed day: the stale schedule moves to the next report time', () => {
    const account = { address: '0xabc', reportAt: '08:00', timezone: 'Europe/Berlin', nextReportAt: Date.parse('2025-03-03T07:00:00Z') };
    const now = Date.parse('2025-03-04T05:00:00Z');
    expect(planReport(account, now, false)).toEqual({ kind: 'not-due', nextAt: Date.parse('2025-03-04T07:00:00Z'), reschedule: true });
  });
});
