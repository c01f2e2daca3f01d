import type { SeriesPoint } from './series';
import type { PlacedStep } from './placedStep';
import { FLOW_EPSILON_USD, logGrowth, placedReturns } from './stepReturn';

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
