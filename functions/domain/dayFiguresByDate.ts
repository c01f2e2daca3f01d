import { dayFigures, type DayFigures } from './dayFigures';
import { addDays, localDayBounds, type LocalDate } from './localTime';
import type { SeriesPoint } from './series';

/** One local day's figures, as the daily report measures them (`dayFigures` from the point at local midnight). */
export interface DatedFigures {
  readonly date: LocalDate;
  readonly startMs: number;
  readonly endMs: number;
  /** `null` when no point falls in the day. */
  readonly figures: DayFigures | null;
}

/** The first index whose timestamp is at or after `t` (series sorted by time). */
function firstAtOrAfter(series: readonly SeriesPoint[], t: number): number {
  let lo = 0;
  let hi = series.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (series[mid]!.timestamp < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The figures of every local day in `timeZone` from `from` to `to` (local dates, inclusive), each
 * measured as the daily report's stored-data path does: `dayFigures` over the points from the
 * day's local midnight to the next (both included). `series` sorted by time.
 */
export function dayFiguresByDate(series: readonly SeriesPoint[], timeZone: string, from: LocalDate, to: LocalDate): DatedFigures[] {
  const out: DatedFigures[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) {
    const { startMs, endMs } = localDayBounds(date, timeZone);
    const window = series.slice(firstAtOrAfter(series, startMs), firstAtOrAfter(series, endMs + 1));
    out.push({ date, startMs, endMs, figures: dayFigures(window, startMs, endMs) });
  }
  return out;
}
