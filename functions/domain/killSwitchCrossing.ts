import { drawdown, drawdownCurve } from './drawdown';
import type { SeriesPoint } from './series';

/** A point of the exact series at or past the kill switch's level: the one it decides and re-reads on. */
export interface KillSwitchCrossing {
  readonly at: number;
  /** The drawdown there, percent. */
  readonly drawdownPct: number;
  /** The same with every marked step at its favourable placement (`DrawdownResult.favourableCurrentPct`). */
  readonly favourableDrawdownPct: number;
  /** The running peak the drawdown at `at` is measured from. */
  readonly peakAt: number;
  /**
   * The first point of the unbroken run of points at or past the level that ends at `at`, among
   * those this poll brought (`at` itself when it is the only one): how long the new data shows
   * the level held.
   */
  readonly since: number;
}

/**
 * The crossing of `levelPct` the kill switch decides on, measured on the exact series as the
 * drawdown alert is: the newest point when its drawdown reaches the level; else the newest of
 * the points from `newFrom` on (those this poll brought) that does, so a loss that arrived in a
 * catch-up batch and recovered within it still counts. `newFrom` `null` (nothing new, or history
 * fetched again): the newest point only. `null`: no such point reaches the level.
 */
export function killSwitchCrossing(series: readonly SeriesPoint[], levelPct: number, newFrom: number | null): KillSwitchCrossing | null {
  const curve = drawdownCurve(series);
  let index = curve.length - 1;
  while (index >= 0 && curve[index]!.drawdownPct < levelPct) {
    index--;
    if (newFrom === null || (curve[index]?.timestamp ?? Number.NEGATIVE_INFINITY) < newFrom) return null;
  }
  if (index < 0) return null;
  let first = index;
  while (newFrom !== null && first > 0 && curve[first - 1]!.timestamp >= newFrom && curve[first - 1]!.drawdownPct >= levelPct) first--;
  const measured = drawdown(series.slice(0, index + 1))!;
  return {
    at: measured.asOf,
    drawdownPct: measured.currentPct,
    favourableDrawdownPct: measured.favourableCurrentPct,
    peakAt: measured.peakAt,
    since: curve[first]!.timestamp,
  };
}
