import type { DrawdownPoint } from './drawdown';

/**
 * The deepest point of a drawdown curve at or after `fromMs` (the points one poll brought: after an
 * outage, the whole filled gap); the latest of equal depths. `null` when none is that recent.
 */
export function deepestSince(curve: readonly DrawdownPoint[], fromMs: number): DrawdownPoint | null {
  let deepest: DrawdownPoint | null = null;
  for (const point of curve) {
    if (point.timestamp >= fromMs && (deepest === null || point.drawdownPct >= deepest.drawdownPct)) deepest = point;
  }
  return deepest;
}

/** When the curve first reached `levelPct` at or after `fromMs`; `null` if it did not. */
export function firstReached(curve: readonly DrawdownPoint[], fromMs: number, levelPct: number): number | null {
  return curve.find((point) => point.timestamp >= fromMs && point.drawdownPct >= levelPct)?.timestamp ?? null;
}

/**
 * The shallowest point of a drawdown curve at or after `fromMs` and before `beforeMs` (the earliest
 * of equal depths): where, among the points one poll brought, a breached level may have recovered
 * before the drawdown deepened again. `null` when there is none.
 */
export function shallowestBetween(curve: readonly DrawdownPoint[], fromMs: number, beforeMs: number): DrawdownPoint | null {
  let shallowest: DrawdownPoint | null = null;
  for (const point of curve) {
    if (point.timestamp >= fromMs && point.timestamp < beforeMs && (shallowest === null || point.drawdownPct < shallowest.drawdownPct)) shallowest = point;
  }
  return shallowest;
}
