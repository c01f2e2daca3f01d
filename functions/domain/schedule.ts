import { INTERVAL_MS, type Interval } from './interval';

/** Default wait after an interval closes before polling, so the aggregated point is there. */
export const DEFAULT_POLL_DELAY_MS = 30_000;

/**
 * The next poll time strictly after `after`: an interval boundary (multiples of the interval
 * since the epoch, so `1h` polls at :00 and `1d` at 00:00 UTC) plus `delayMs`. Pass
 * `max(lastDueAt, now)` so an account that fell behind is not scheduled in the past.
 */
export function nextDueAt(after: number, interval: Interval, delayMs: number = DEFAULT_POLL_DELAY_MS): number {
  const step = INTERVAL_MS[interval];
  if (!(delayMs >= 0 && delayMs < step)) throw new RangeError(`delayMs must be in [0, ${step}) for ${interval}, got ${delayMs}`);
  return (Math.floor((after - delayMs) / step) + 1) * step + delayMs;
}

/** Whether an item scheduled at `dueAt` should run at `now`. */
export function isDue(dueAt: number, now: number): boolean {
  return dueAt <= now;
}

/** The items due at `now`, longest-waiting first, at most `limit`. */
export function selectDue<T extends { nextDueAt: number }>(items: readonly T[], now: number, limit = Infinity): T[] {
  return items
    .filter((i) => isDue(i.nextDueAt, now))
    .sort((a, b) => a.nextDueAt - b.nextDueAt)
    .slice(0, limit);
}
