import { downsampleIndices } from './downsample';
import type { DrawdownPoint } from './drawdown';
import type { SeriesPoint } from './series';
import { FLOW_EPSILON_USD, netFlow } from './stepReturn';

/** A deposit (positive) or a withdrawal (negative) the equity curve marks, at the point ending the step it fell in. */
export interface FlowMark {
  readonly t: number;
  readonly amount: number;
}

/** What an account's charts draw: equity and the underwater drawdown on one time axis, and the flows. */
export interface DeskChart {
  /** Points stored in the window, before any downsampling. */
  readonly stored: number;
  readonly t: readonly number[];
  readonly equity: readonly number[];
  /** The flow-adjusted drawdown at each point, percent (0 at a peak). */
  readonly drawdown: readonly number[];
  readonly flows: readonly FlowMark[];
}

/**
 * The chart of `series` (sorted) with its drawdown curve `underwater` (one point per point of
 * `series`, from `drawdownCurve`), at most about `maxPoints` points: every point while they fit;
 * else, per span of time, the lowest and highest equity and drawdown (`downsampleIndices`), so the
 * deepest drawdown and every flow keep their places.
 */
export function deskChart(series: readonly SeriesPoint[], underwater: readonly DrawdownPoint[], maxPoints: number): DeskChart {
  const flows: FlowMark[] = [];
  const flowAt = new Set<number>();
  for (let i = 1; i < series.length; i++) {
    const amount = netFlow(series[i - 1]!, series[i]!);
    if (Math.abs(amount) >= FLOW_EPSILON_USD) {
      flows.push({ t: series[i]!.timestamp, amount });
      flowAt.add(i);
    }
  }
  const t = series.map((p) => p.timestamp);
  const equity = series.map((p) => p.equity);
  const drawdown = underwater.map((p) => p.drawdownPct);
  const kept = downsampleIndices(t, [equity, drawdown], maxPoints, flowAt);
  return {
    stored: series.length,
    t: kept.map((i) => t[i]!),
    equity: kept.map((i) => equity[i]!),
    drawdown: kept.map((i) => drawdown[i]!),
    flows,
  };
}
