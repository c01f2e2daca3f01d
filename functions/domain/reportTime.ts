import { addDays, localDate, localDayBounds, wallClockToInstant, type LocalDate } from './localTime';

/** `HH:MM`, 24-hour clock, two digits each. */
export const CLOCK_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Parses `HH:MM` (24-hour). Throws `RangeError` naming the value otherwise. */
export function parseClockTime(value: string): { hour: number; minute: number } {
  const m = CLOCK_TIME.exec(value);
  if (!m) throw new RangeError(`not a time of day in 24-hour HH:MM form: ${JSON.stringify(value)}`);
  return { hour: Number(m[1]), minute: Number(m[2]) };
}

/** When the report of local date `date` goes out: `reportAt` on that date in `timeZone` (DST rules of `wallClockToInstant`). */
export function reportInstant(date: LocalDate, reportAt: string, timeZone: string): number {
  const { hour, minute } = parseClockTime(reportAt);
  return wallClockToInstant(date, hour, minute, timeZone);
}

/**
 * The next instant at or after `now` when the wall clock in `timeZone` reads `reportAt`.
 * A time inside a spring-forward gap gives the end of the gap; a time repeated on a fall-back
 * day gives its first occurrence; either way there is exactly one per local day.
 */
export function nextReportAt(now: number, reportAt: string, timeZone: string): number {
  const today = localDate(now, timeZone);
  const t = reportInstant(today, reportAt, timeZone);
  return t >= now ? t : reportInstant(addDays(today, 1), reportAt, timeZone);
}

/** The report due at `now`, if any. */
export type ReportDue =
  | {
      kind: 'due';
      /** The local date the report is sent on; the key for "once per local day". */
      reportDate: LocalDate;
      /** The previous local day, which the report covers, and its bounds. */
      coveredDate: LocalDate;
      startMs: number;
      endMs: number;
    }
  | { kind: 'not-due'; nextAt: number };

/**
 * Whether the daily report is due at `now`: today's report time has passed and no report was
 * sent for today yet (`lastReportDate` is the `reportDate` of the last one sent). A report time
 * missed for a whole local day is not caught up; the next report covers its own previous day.
 */
export function dueReport(now: number, reportAt: string, timeZone: string, lastReportDate: LocalDate | null): ReportDue {
  const today = localDate(now, timeZone);
  const at = reportInstant(today, reportAt, timeZone);
  if (now >= at && (lastReportDate === null || lastReportDate < today)) {
    const coveredDate = addDays(today, -1);
    return { kind: 'due', reportDate: today, coveredDate, ...localDayBounds(coveredDate, timeZone) };
  }
  return { kind: 'not-due', nextAt: now < at ? at : reportInstant(addDays(today, 1), reportAt, timeZone) };
}
