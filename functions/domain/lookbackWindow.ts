import { INTERVAL_MS, type Interval } from './interval';

/** Most curve points one drawdown evaluation, status or report reads. */
export const MAX_LOOKBACK_POINTS = 5_000;

/**
 * How far back drawdown peaks are looked for at `interval`: `lookbackMs`, but never more than
 * `maxPoints` intervals, so a 1-minute account reads about 3.5 days per evaluation instead of
 * 90 days of minutes (130,000 points every minute). At 1h and longer the full lookback applies.
 */
export function lookbackWindowMs(interval: Interval, lookbackMs: number, maxPoints: number = MAX_LOOKBACK_POINTS): number {
  return Math.min(lookbackMs, maxPoints * INTERVAL_MS[interval]);
}
