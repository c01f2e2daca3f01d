import { alignCurves, type SeriesPoint } from '../domain/series';
import type { StoredCurvePoint } from './curvesRepository';

/** Stored curve points as one series with both equity and PnL (points missing either are left out). */
export function storedSeries(points: readonly StoredCurvePoint[]): SeriesPoint[] {
  return alignCurves(
    points.flatMap((p) => (p.equity === undefined ? [] : [{ timestamp: p.ts, value: p.equity }])),
    points.flatMap((p) => (p.pnl === undefined ? [] : [{ timestamp: p.ts, value: p.pnl }])),
  );
}
