import { describe, expect, it } from 'vitest';
import { addDays, localDate, localDayBounds } from '../../../functions/domain/localTime';
import { dueReport, nextReportAt, parseClockTime, reportInstant } from '../../../functions/domain/reportPlan';

const HOUR = 3_600_000;
const utc = (iso: string) => Date.parse(iso);

describe('parseClockTime', () => {
  it('reads 24-hour HH:MM and rejects anything else with the value in the message', () => {
    expect(parseClockTime('08:05')).toEqual({ hour: 8, minute: 5 });
    expect(parseClockTime('23:59')).toEqual({ hour: 23, minute: 59 });
    for (const bad of ['24:00', '8:00', '12:60', '12:5', 'noon', ' 08:00']) expect(() => parseClockTime(bad)).toThrow(JSON.stringify(bad));
  });
});

describe('nextReportAt', () => {
  it('is today when the time is still ahead, or now itself, else tomorrow', () => {
    const now = utc('2024-07-01T05:00:00Z'); // 07:00 in Berlin
    expect(nextReportAt(now, '08:00', 'Europe/Berlin')).toBe(utc('2024-07-01T06:00:00Z'));
    expect(nextReportAt(utc('2024-07-01T06:00:00Z'), '08:00', 'Europe/Berlin')).toBe(utc('2024-07-01T06:00:00Z'));
    expect(nextReportAt(utc('2024-07-01T06:00:00.001Z'), '08:00', 'Europe/Berlin')).toBe(utc('2024-07-02T06:00:00Z'));
  });

  it('uses the zone, not UTC, to decide what "today" is', () => {
    // 23:30 on 1 July in New York is already 2 July in UTC.
    expect(nextReportAt(utc('2024-07-02T03:30:00Z'), '23:45', 'America/New_York')).toBe(utc('2024-07-02T03:45:00Z'));
  });

  it('on the fall-back day, sends at the first 02:30 and not again at the second', () => {
    const first = nextReportAt(utc('2024-10-26T23:00:00Z'), '02:30', 'Europe/Berlin');
    expect(first).toBe(utc('2024-10-27T00:30:00Z'));
    expect(nextReportAt(first + 1, '02:30', 'Europe/Berlin')).toBe(utc('2024-10-28T01:30:00Z'));
  });

  it('on the spring-forward day, sends at the end of the gap', () => {
    expect(nextReportAt(utc('2024-03-30T12:00:00Z'), '02:30', 'Europe/Berlin')).toBe(utc('2024-03-31T01:00:00Z'));
    expect(nextReportAt(utc('2024-10-05T12:00:00Z'), '02:10', 'Australia/Lord_Howe')).toBe(utc('2024-10-05T15:30:00Z'));
    expect(nextReportAt(utc('2024-03-09T12:00:00Z'), '02:00', 'America/New_York')).toBe(utc('2024-03-10T07:00:00Z'));
  });

  it('gives exactly one report per local day through a whole year, DST days included', () => {
    const cases: Array<[string, string]> = [
      ['Europe/Berlin', '02:30'],
      ['America/New_York', '01:30'],
      ['America/New_York', '02:15'],
      ['Australia/Lord_Howe', '02:15'],
      ['Australia/Lord_Howe', '01:45'],
      ['Europe/Berlin', '00:00'],
    ];
    for (const [zone, at] of cases) {
      let t = nextReportAt(utc('2024-01-01T00:00:00Z'), at, zone);
      let date = localDate(t, zone);
      for (let i = 0; i < 366; i++) {
        const next = nextReportAt(t + 1, at, zone);
        const nextDate = localDate(next, zone);
        expect(nextDate, `${zone} ${at} after ${date}`).toBe(addDays(date, 1));
        expect(next).toBe(reportInstant(nextDate, at, zone));
        [t, date] = [next, nextDate];
      }
    }
  });
});

describe('dueReport', () => {
  const zone = 'America/New_York';

  it('is due once the local report time has passed, covering the previous local day', () => {
    const now = utc('2024-11-04T13:05:00Z'); // 08:05 EST on 4 November
    expect(dueReport(now, '08:00', zone, '2024-11-03')).toEqual({
      kind: 'due',
      reportDate: '2024-11-04',
      coveredDate: '2024-11-03',
      ...localDayBounds('2024-11-03', zone),
    });
    const due = dueReport(now, '08:00', zone, null);
    expect(due.kind === 'due' && due.endMs - due.startMs).toBe(25 * HOUR);
  });

  it('is not due again on the same local day, nor before the report time', () => {
    expect(dueReport(utc('2024-11-04T20:00:00Z'), '08:00', zone, '2024-11-04')).toEqual({ kind: 'not-due', nextAt: utc('2024-11-05T13:00:00Z') });
    expect(dueReport(utc('2024-11-04T12:59:00Z'), '08:00', zone, '2024-11-03')).toEqual({ kind: 'not-due', nextAt: utc('2024-11-04T13:00:00Z') });
  });
});
