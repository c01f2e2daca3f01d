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
