import { INTERVALS, INTERVAL_MS, type Interval } from './interval';
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
  /** The interval the chain is asked at (`summaryInterval`). */
  interval: Interval;
}

const WINDOW_DAYS: Readonly<Record<ReportWindowKey, number>> = { day: 1, '7d': 7, '30d': 30 };

/** Fewest curve steps a window's summary is computed over, so rates like volatility have data to work with. */
export const MIN_SUMMARY_STEPS = 20;

/**
 * The coarsest interval of the chain whose grid (multiples of the interval since the epoch, UTC)
 * holds both ends of `[fromMs, toMs]` and gives at least `MIN_SUMMARY_STEPS` steps: the summary then
 * covers exactly the window, in as few points as possible. `1m` when nothing coarser fits.
 */
export function summaryInterval(fromMs: number, toMs: number): Interval {
  for (const interval of [...INTERVALS].reverse()) {
    const ms = INTERVAL_MS[interval];
    if (fromMs % ms === 0 && toMs % ms === 0 && (toMs - fromMs) / ms >= MIN_SUMMARY_STEPS) return interval;
  }
  return '1m';
}

/**
 * The report's windows for the local day `date` in `timeZone`: the day itself, the last 7 and the
 * last 30 local days, each from a local midnight to the midnight ending `date` (23- and 25-hour
 * days included).
 */
export function reportWindows(date: LocalDate, timeZone: string): (ReportWindow & { key: ReportWindowKey })[] {
  const { endMs } = localDayBounds(date, timeZone);
  return REPORT_WINDOW_KEYS.map((key) => {
    const days = WINDOW_DAYS[key];
    const { startMs } = localDayBounds(addDays(date, 1 - days), timeZone);
    return { key, days, fromMs: startMs, toMs: endMs, interval: summaryInterval(startMs, endMs) };
  });
}
