import type { SeriesPoint } from './series';
import { chainedReturn, FLOW_EPSILON_USD, netFlow } from './stepReturn';

/** What happened to an account over one period. Amounts in USD, percentages in percent points. */
export interface DayFigures {
  /** The points the figures are measured between. */
  startAt: number;
  endAt: number;
  equityStart: number;
  equityEnd: number;
  /** PnL over the period (flow-free by the chain's definition). */
  pnl: number;
  /** Flow-adjusted return, `prod(1 + r_t) - 1`. */
  returnPct: number;
  /** Deposits minus withdrawals: the equity change the PnL does not explain. */
  netFlows: number;
  /** Sum of the steps where money came in, and of those where it went out (a positive number). */
  deposits: number;
  withdrawals: number;
}

const noise = (x: number) => (Math.abs(x) < FLOW_EPSILON_USD ? 0 : x);

/**
 * Figures for `[startMs, endMs]`, measured from the last point at or before `startMs` (the state
 * when the period began; if there is none, the first point inside it) to the last point at or
 * before `endMs`. `null` when no point falls after `startMs` and at or before `endMs` (no data for
 * the period). `series` must be sorted by time.
 */
export function dayFigures(series: readonly SeriesPoint[], startMs: number, endMs: number): DayFigures | null {
  const before = series.filter((p) => p.timestamp <= startMs).at(-1);
  const window = series.filter((p) => p.timestamp > startMs && p.timestamp <= endMs);
  if (window.length === 0) return null;
  const points = before ? [before, ...window] : window;
  const first = points[0]!;
  const last = points[points.length - 1]!;
  let deposits = 0;
  let withdrawals = 0;
  for (let i = 1; i < points.length; i++) {
    const flow = noise(netFlow(points[i - 1]!, points[i]!));
    if (flow > 0) deposits += flow;
    else withdrawals -= flow;
  }
  const pnl = last.pnl - first.pnl;
  return {
    startAt: first.timestamp,
    endAt: last.timestamp,
    equityStart: first.equity,
    equityEnd: last.equity,
    pnl,
    returnPct: chainedReturn(points) * 100,
    netFlows: noise(last.equity - first.equity - pnl),
    deposits,
    withdrawals,
  };
}
