import type { CurvePoint } from '../../domain/curvePoint';
import type { StoredCurvePoint } from '../../store/curvesRepository';

/**
 * The points to store from a fetched window: those strictly after `cursorMs`, one per timestamp
 * (equity and PnL of one timestamp merged; exact repeats dropped, a later differing value wins),
 * oldest first. Overlap with what is stored and out-of-order points are accepted.
 */
export function newCurvePoints(equity: readonly CurvePoint[], pnl: readonly CurvePoint[], cursorMs: number | null): StoredCurvePoint[] {
  const byTs = new Map<number, { ts: number; equity?: string; pnl?: string }>();
  const add = (points: readonly CurvePoint[], field: 'equity' | 'pnl') => {
    for (const p of points) {
      if (cursorMs !== null && p.timestamp <= cursorMs) continue;
      const entry = byTs.get(p.timestamp) ?? { ts: p.timestamp };
      entry[field] = p.value;
      byTs.set(p.timestamp, entry);
    }
  };
  add(equity, 'equity');
  add(pnl, 'pnl');
  return [...byTs.values()].sort((a, b) => a.ts - b.ts);
}
