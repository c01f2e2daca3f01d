import { alignCurves, type SeriesPoint } from '../domain/series';
import type { StoredCurvePoint } from './storedCurvePoint';

/**
 * Stored curve points as one series with both equity and PnL (points missing either are left
 * out), each keeping the placed step it was stored with.
 */
export function storedSeries(points: readonly StoredCurvePoint[]): SeriesPoint[] {
  const steps = new Map(points.flatMap((p) => (p.step === undefined ? [] : [[p.ts, p.step] as const])));
  const series = alignCurves(
    points.flatMap((p) => (p.equity === undefined ? [] : [{ timestamp: p.ts, value: p.equity }])),
    points.flatMap((p) => (p.pnl === undefined ? [] : [{ timestamp: p.ts, value: p.pnl }])),
  );
  if (steps.size === 0) return series;
  return series.map((p) => {
    const step = steps.get(p.timestamp);
    return step === undefined ? p : { ...p, step };
  });
}
