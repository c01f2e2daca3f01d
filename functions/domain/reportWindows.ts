import { INTERVAL_MS, type Interval } from './interval';
import { addDays, localDayBounds, type LocalDate } from './localTime';

/** The windows a report's metrics cover. */
export const REPORT_WINDOW_KEYS = ['day', '7d', '30d'] as const;
export type ReportWindowKey = (typeof REPORT_WINDOW_KEYS)[number];

/** Keys of every window a report may show: the daily report's, and the weekly or monthly summary's span. */
export type WindowKey = ReportWindowKey | 'week' | 'month';

/** One window of a report's metrics: local midnight to local midnight, and how the chain is asked for it. */
export interface ReportWindow {
  key: WindowKey;
  /** Local days covered, ending with the last covered day. */
  days: number;
  /** The first local midnight. */
  fromMs: number;
  /** The local midnight after the report day (the window's end state: `to` is inclusive at the chain). */
  toMs: number;
  /** The interval the chain is asked at (`reportSampling`, the same for every window of a report). */
  interval: Interval;
}

const WINDOW_DAYS: Readonly<Record<ReportWindowKey, number>> = { day: 1, '7d': 7, '30d': 30 };

/** The samplings a report asks the chain at, coarsest first: `1h` for whole-hour zones, `30m` (India), `15m` (Nepal). */
export const REPORT_SAMPLINGS = ['1h', '30m', '15m'] as const satisfies readonly Interval[];

/**
 * The one interval every window of a report is asked at: the coarsest of `REPORT_SAMPLINGS` whose
 * grid (UTC, since the epoch) holds every boundary (the zone's midnights), so the chain's max
 * drawdown, Sharpe and volatility of the day, 7 and 30 days are sampled alike and comparable.
 * A zone whose midnights fall off the quarter-hour grid gets the coarsest finer interval that fits.
 */
export function reportSampling(boundaries: readonly number[]): Interval {
  const fits = (interval: Interval): boolean => boundaries.every((ms) => ms % INTERVAL_MS[interval] === 0);
  return REPORT_SAMPLINGS.find(fits) ?? (fits('5m') ? '5m' : '1m');
}

/**
 * The report's windows for the local day `date` in `timeZone`: the day itself, the last 7 and the
 * last 30 local days, each from a local midnight to the midnight ending `date` (23- and 25-hour
 * days included), all asked at one `reportSampling`.
 */
export function reportWindows(date: LocalDate, timeZone: string): (ReportWindow & { key: ReportWindowKey })[] {
  const { endMs } = localDayBounds(date, timeZone);
  const spans = REPORT_WINDOW_KEYS.map((key) => {
    const days = WINDOW_DAYS[key];
    return { key, days, fromMs: localDayBounds(addDays(date, 1 - days), timeZone).startMs, toMs: endMs };
  });
  const interval = reportSampling(spans.flatMap((w) => [w.fromMs, w.toMs]));
  return spans.map((span) => ({ ...span, interval }));
}

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
    return sampledAlike(
      windowOf('week', addDays(reportDate, -7), reportDate, timeZone),
      windowOf('week', addDays(reportDate, -14), addDays(reportDate, -7), timeZone),
    );
  }
  return sampledAlike(
    windowOf('month', addMonths(reportDate, -1), reportDate, timeZone),
    windowOf('month', addMonths(reportDate, -2), addMonths(reportDate, -1), timeZone),
  );
}
