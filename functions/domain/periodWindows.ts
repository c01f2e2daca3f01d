import { addDays, localDayBounds, type LocalDate } from './localTime';
import { reportSampling, type ReportWindow } from './reportWindows';

/** The span of an opt-in summary: the last 7 local days, or the month up to the report day. */
export type SummaryPeriod = 'week' | 'month';

/** A summary's window and the one just before it (its changes are measured against it). */
export interface PeriodWindows {
  readonly current: ReportWindow;
  readonly previous: ReportWindow;
}

/** `date` moved by `months` calendar months, the day clamped to the target month's length. */
export function addMonths(date: LocalDate, months: number): LocalDate {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const days = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, days));
  return first.toISOString().slice(0, 10);
}

const dayCount = (from: LocalDate, to: LocalDate): number => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

function windowOf(key: SummaryPeriod, from: LocalDate, to: LocalDate, timeZone: string): Omit<ReportWindow, 'interval'> {
  return { key, days: dayCount(from, to), fromMs: localDayBounds(from, timeZone).startMs, toMs: localDayBounds(to, timeZone).startMs };
}

/** Both windows at one `reportSampling`, so the changes compare like with like. */
function sampledAlike(current: Omit<ReportWindow, 'interval'>, previous: Omit<ReportWindow, 'interval'>): PeriodWindows {
  const interval = reportSampling([current.fromMs, current.toMs, previous.fromMs, previous.toMs]);
  return { current: { ...current, interval }, previous: { ...previous, interval } };
}

/**
 * The window of the weekly or monthly summary sent on local date `reportDate` in `timeZone`, from
 * a local midnight to the midnight that starts `reportDate` (DST days included):
 * - `week`: the last 7 local days; the previous window is the 7 days before them;
 * - `month`: from the same day of the previous month (clamped to its length) to the report day,
 *   so a summary sent on the 1st covers exactly the last calendar month; the previous window is
 *   the month before that.
 */
export function periodWindows(period: SummaryPeriod, reportDate: LocalDate, timeZone: string): PeriodWindows {
  if (period === 'week') {
    return sampledAlike(windowOf('week', addDays(reportDate, -7), reportDate, timeZone), windowOf('week', addDays(reportDate, -14), addDays(reportDate, -7), timeZone));
  }
  return sampledAlike(
    windowOf('month', addMonths(reportDate, -1), reportDate, timeZone),
    windowOf('month', addMonths(reportDate, -2), addMonths(reportDate, -1), timeZone),
  );
}
