import type { PlacedStep } from './placedStep';
import type { SeriesPoint } from './series';

export type { FlowPlacement, PlacedStep } from './placedStep';

/** Flows smaller than this (USD) are rounding noise between the two curves, not deposits or withdrawals. */
export const FLOW_EPSILON_USD = 0.01;

/**
 * Cash that entered (+) or left (-) the account between two points: the equity change the PnL
 * does not explain. The chain's PnL curve is net of bridge and vault flows, so this is exact up
 * to rounding.
 */
export function netFlow(prev: SeriesPoint, cur: SeriesPoint): number {
  return cur.equity - prev.equity - (cur.pnl - prev.pnl);
}

/** The lowest and highest return a step can have, over the places its flow may have happened. */
export interface StepReturnRange {
  readonly low: number;
  readonly high: number;
}

function ratio(pnlChange: number, capital: number): number | null {
  const r = pnlChange / capital;
  return capital > 0 && Number.isFinite(r) ? r : null;
}

/**
 * The step's return with its flow placed at the start (`capital = equity_{t-1} + flow`) and at
 * the end (`capital = equity_{t-1}`) of the step, as a range. Without a flow both are
 * `(pnl_t - pnl_{t-1}) / equity_{t-1}`. Any flow counts, however small: the range closes
 * continuously as the flow shrinks, so the return never jumps at a threshold and scaling every
 * value leaves it unchanged (only marking, in `placedReturns`, ignores flows below `FLOW_EPSILON_USD`). A placement with no positive
 * capital is impossible; one that empties the account (a return of -100% or below) is dropped
 * when the other does not and the account ends the step in credit (a deposit funding the loss,
 * a withdrawal of everything). 0 when nothing was at risk or an input is not finite.
 */
export function stepReturnRange(prev: SeriesPoint, cur: SeriesPoint): StepReturnRange {
  const pnlChange = cur.pnl - prev.pnl;
  const flow = netFlow(prev, cur);
  if (flow === 0 || !Number.isFinite(flow)) {
    const r = ratio(pnlChange, prev.equity) ?? 0;
    return { low: r, high: r };
  }
  const placements = [ratio(pnlChange, prev.equity + flow), ratio(pnlChange, prev.equity)].filter((r): r is number => r !== null);
  const surviving = cur.equity >= 0 ? placements.filter((r) => r > -1) : [];
  const candidates = surviving.length > 0 ? surviving : placements;
  if (candidates.length === 0) return { low: 0, high: 0 };
  return { low: Math.min(...candidates), high: Math.max(...candidates) };
}

/** The placed step `cur` carries for the step from `prev`, if any. */
function placedFrom(prev: SeriesPoint, cur: SeriesPoint): PlacedStep | null {
  return cur.step !== undefined && cur.step.fromTs === prev.timestamp && Number.isFinite(cur.step.r) ? cur.step : null;
}

/**
 * The trading return of one step: the return collection placed (`cur.step`, for the step from
 * `prev`), else the lower end of `stepReturnRange` (the flow placed at the start or the end of
 * the step, whichever gives less). So a deposit in a losing step never dilutes the loss and a
 * withdrawal never hides one; a step without a flow is `(pnl_t - pnl_{t-1}) / equity_{t-1}`.
 * The result may be below -1 only when equity went negative (bad debt); callers treat that as a
 * total loss.
 */
export function stepReturn(prev: SeriesPoint, cur: SeriesPoint): number {
  return placedFrom(prev, cur)?.r ?? stepReturnRange(prev, cur).low;
}

/**
 * The step's return (`stepReturn`) and its return at the most favourable placement: the placed
 * return of a refined step, else the upper end of `stepReturnRange`. The two differ only on a
 * marked step: one whose flow could not be placed and whose placements differ (a flow with no
 * PnL change in its step is never marked).
 */
export function placedReturns(prev: SeriesPoint, cur: SeriesPoint): { readonly r: number; readonly favourable: number } {
  const placed = placedFrom(prev, cur);
  if (placed?.placement === 'refined') return { r: placed.r, favourable: placed.r };
  const range = stepReturnRange(prev, cur);
  // A flow below a cent is rounding noise between the two curves: its step takes the lower
  // placement like any other, but is not marked (nothing to refine, nothing for an action to wait on).
  const noise = placed === null && !(Math.abs(netFlow(prev, cur)) >= FLOW_EPSILON_USD);
  return { r: placed?.r ?? range.low, favourable: placed?.favourable ?? (noise ? range.low : range.high) };
}

/** Whether the step's return rests on a flow that could not be placed (see `placedReturns`). */
export function isMarkedStep(prev: SeriesPoint, cur: SeriesPoint): boolean {
  const { r, favourable } = placedReturns(prev, cur);
  return favourable !== r;
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

const same = (a: SeriesPoint, b: SeriesPoint) => Math.abs(a.equity - b.equity) < FLOW_EPSILON_USD && Math.abs(a.pnl - b.pnl) < FLOW_EPSILON_USD;

/**
 * The step `prev -> cur` with its flow placed at the minute it happened: the chained return of
 * the step's `1m` points (`minutes`, sorted), exactly what a poll at `1m` would measure between
 * the two points. `conservative` when a flow falls within one of those minutes (that sub-step
 * takes the lower of its placements; `favourable` keeps the higher). `null` when `minutes` does not span the step, starting at
 * `prev` and ending at `cur` with their values: the step then cannot be placed.
 */
export function refineStep(prev: SeriesPoint, cur: SeriesPoint, minutes: readonly SeriesPoint[]): PlacedStep | null {
  const inside = minutes.filter((p) => p.timestamp >= prev.timestamp && p.timestamp <= cur.timestamp);
  const first = inside[0];
  const last = inside[inside.length - 1];
  if (!first || !last || first.timestamp !== prev.timestamp || last.timestamp !== cur.timestamp || !same(first, prev) || !same(last, cur)) return null;
  const path = [
    prev,
    ...inside.slice(1, -1).map(({ timestamp, equity, pnl }) => ({ timestamp, equity, pnl })),
    { timestamp: cur.timestamp, equity: cur.equity, pnl: cur.pnl },
  ];
  let log = 0;
  let favourableLog = 0;
  for (let i = 1; i < path.length; i++) {
    const step = placedReturns(path[i - 1]!, path[i]!);
    log += logGrowth(step.r);
    favourableLog += logGrowth(step.favourable);
  }
  const r = Math.expm1(log);
  const favourable = Math.expm1(favourableLog);
  return favourable === r ? { r, placement: 'refined', fromTs: prev.timestamp } : { r, placement: 'conservative', fromTs: prev.timestamp, favourable };
}
