import type { LocalDate } from './localTime';
import { followsAccountSchedule, WEEKDAYS, type RecipientSettings, type ReportPeriod, type Weekday } from './recipientSettings';

/** The zone and local time a recipient's own reports go out at. */
export interface RecipientClock {
  readonly timezone: string;
  readonly reportAt: string;
}

/**
 * Whether the recipient needs a schedule of its own (`nextReportAt` on its record): its daily
 * reports do not follow its accounts' schedules (see `followsAccountSchedule`), or it opted into
 * a weekly or monthly summary. A recipient that only adds a summary still gets its daily reports
 * with each account's report.
 */
export function hasOwnSchedule(settings: RecipientSettings): boolean {
  return !followsAccountSchedule(settings) || settings.weekly !== null || settings.monthly !== null;
}

/**
 * The clock of a recipient's own schedule: its zone and report time, each falling back to the
 * first of its accounts (by address), else UTC and 08:00.
 */
export function recipientClock(
  settings: RecipientSettings,
  accounts: readonly { readonly address: string; readonly timezone: string; readonly reportAt: string }[],
): RecipientClock {
  const first = [...accounts].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0))[0];
  return { timezone: settings.timezone ?? first?.timezone ?? 'UTC', reportAt: settings.reportAt ?? first?.reportAt ?? '08:00' };
}

/** The weekday of a calendar date. */
export function weekdayOf(date: LocalDate): Weekday {
  const sundayFirst = new Date(`${date}T00:00:00Z`).getUTCDay();
  return WEEKDAYS[(sundayFirst + 6) % 7] as Weekday;
}

/**
 * What the recipient's own schedule sends on local date `date`: its daily report when it does
 * not follow its accounts' schedules, the weekly summary on its weekday, the monthly one on its
 * day of the month. Empty on a day with nothing of its own.
 */
export function periodsDue(settings: RecipientSettings, date: LocalDate): ReportPeriod[] {
  const periods: ReportPeriod[] = [];
  if (!followsAccountSchedule(settings)) periods.push('day');
  if (settings.weekly !== null && weekdayOf(date) === settings.weekly) periods.push('week');
  if (settings.monthly !== null && Number(date.slice(8, 10)) === settings.monthly) periods.push('month');
  return periods;
}
