import type { SeriesPoint } from './series';

/**
 * Cash that entered (+) or left (-) the account between two points: the equity change the PnL
 * does not explain. The chain's PnL curve is net of bridge and vault flows, so this is exact up
 * to rounding.
 */
export function netFlow(prev: SeriesPoint, cur: SeriesPoint): number {
  return cur.equity - prev.equity - (cur.pnl - prev.pnl);
}

/**
 * The trading return of one step, `r = (pnl_t - pnl_{t-1}) / capital`, where capital is
 * `equity_{t-1}` plus any deposit detected in the same step (a deposit is assumed to arrive at
 * the start of the step; a withdrawal at its end). Without a deposit this is exactly
 * `(pnl_t - pnl_{t-1}) / equity_{t-1}`; with one it keeps a deposit-and-loss step from looking
 * like a loss larger than the account.
 *
 * Returns 0 when capital is not positive (nothing was at risk: an empty account, or one in
 * deficit) or when any input is not finite, so the result is never NaN. The result may be
 * below -1 only when equity went negative (bad debt); callers treat that as a total loss.
 */
export function stepReturn(prev: SeriesPoint, cur: SeriesPoint): number {
  const capital = prev.equity + Math.max(0, netFlow(prev, cur));
  const r = (cur.pnl - prev.pnl) / capital;
  return capital > 0 && Number.isFinite(r) ? r : 0;
}

/** `log(1 + r)`, with a total loss (`r <= -1`) as `-Infinity`. Summing these chains returns without overflow. */
export function logGrowth(r: number): number {
  return r <= -1 ? -Infinity : Math.log1p(r);
}

/**
 * Flow-adjusted return over the series, `prod(1 + r_t) - 1`, as a fraction (`0.05` is +5%).
 * `0` for fewer than two points; `-1` after a total loss.
 */
export function chainedReturn(series: readonly SeriesPoint[]): number {
  let log = 0;
  for (let i = 1; i < series.length; i++) log += logGrowth(stepReturn(series[i - 1]!, series[i]!));
  return Math.expm1(log);
}
