import type { SeriesPoint } from './series';
import { logGrowth, placedReturns } from './stepReturn';

/** Drawdown of the flow-adjusted performance index over a series. Percentages are in [0, 100]. */
export interface DrawdownResult {
  /** Drawdown of the index at the last point from its running peak, percent. */
  currentPct: number;
  /** Deepest drawdown anywhere in the series, percent. */
  maxPct: number;
  /** The point where the running peak was last reached (the latest one if the index revisits it). */
  peakAt: number;
  peakEquity: number;
  peakPnl: number;
  /** PnL lost since the peak, `max(0, pnl_peak - pnl_now)`, USD. */
  dollarDrawdown: number;
  /**
   * Signed PnL since the peak, `pnl_now - pnl_peak`. It can be >= 0 while `currentPct > 0`: the
   * index weighs each step's PnL by the capital at risk, dollars do not.
   */
  pnlSincePeak: number;
  /** The peak and trough bounding the deepest drawdown, and the PnL lost between them. */
  maxPeakAt: number;
  maxTroughAt: number;
  maxDollarDrawdown: number;
  /** Timestamp of the last point. */
  asOf: number;
  /**
   * The current drawdown with every marked step (a flow that could not be placed, see
   * `placedReturns`) at its most favourable placement, percent. Equal to `currentPct` when no
   * marked step counts; a level between the two is crossed on marked steps alone.
   */
  favourableCurrentPct: number;
}

/** One point of the drawdown curve. */
export interface DrawdownPoint {
  timestamp: number;
  drawdownPct: number;
}

function pct(logGap: number): number {
  return -Math.expm1(-logGap) * 100;
}

/**
 * Walks the index once. The index starts at 1 on the first point and is tracked as a sum of
 * `log(1 + r_t)`: it never overflows, a total loss is `-Infinity` (100% drawdown, and it stays
 * there), and a step with `r_t = 0` leaves it bit-for-bit unchanged.
 */
function walk(series: readonly SeriesPoint[], visit?: (p: SeriesPoint, gap: number) => void): DrawdownResult | null {
  const first = series[0];
  if (!first) return null;
  let log = 0;
  let peakLog = 0;
  let favourableLog = 0;
  let favourablePeak = 0;
  let peak = first;
  let maxGap = 0;
  let maxPeak = first;
  let maxTrough = first;
  visit?.(first, 0);
  for (let i = 1; i < series.length; i++) {
    const cur = series[i]!;
    const step = placedReturns(series[i - 1]!, cur);
    log += logGrowth(step.r);
    favourableLog += logGrowth(step.favourable);
    favourablePeak = Math.max(favourablePeak, favourableLog);
    if (log >= peakLog) {
      peakLog = log;
      peak = cur;
    }
    const gap = peakLog - log;
    if (gap > maxGap) {
      maxGap = gap;
      maxPeak = peak;
      maxTrough = cur;
    }
    visit?.(cur, gap);
  }
  const last = series[series.length - 1]!;
  return {
    currentPct: pct(peakLog - log),
    maxPct: pct(maxGap),
    peakAt: peak.timestamp,
    peakEquity: peak.equity,
    peakPnl: peak.pnl,
    dollarDrawdown: Math.max(0, peak.pnl - last.pnl),
    pnlSincePeak: last.pnl - peak.pnl,
    maxPeakAt: maxPeak.timestamp,
    maxTroughAt: maxTrough.timestamp,
    maxDollarDrawdown: Math.max(0, maxPeak.pnl - maxTrough.pnl),
    asOf: last.timestamp,
    favourableCurrentPct: pct(favourablePeak - favourableLog),
  };
}

/**
 * Flow-adjusted drawdown: per-step returns `r_t = (pnl_t - pnl_{t-1}) / equity_{t-1}` (see
 * `stepReturn` for where a step's flow is placed and the non-positive-equity rule) chained into an index, and
 * the index's drawdown from its running peak. Deposits and withdrawals move equity but not PnL,
 * so they neither create nor clear a drawdown. One pass; `series` must be sorted by time.
 * `null` for an empty series.
 */
export function drawdown(series: readonly SeriesPoint[]): DrawdownResult | null {
  return walk(series);
}

/** The drawdown at every point of `series` (for charts and tests); same rules as `drawdown`. */
export function drawdownCurve(series: readonly SeriesPoint[]): DrawdownPoint[] {
  const out: DrawdownPoint[] = [];
  walk(series, (p, gap) => out.push({ timestamp: p.timestamp, drawdownPct: pct(gap) }));
  return out;
}
