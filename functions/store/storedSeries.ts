import { alignCurves, type SeriesPoint } from '../domain/series';
import type { StoredCurvePoint } from './storedCurvePoint';

/**
 * Stored curve points as one series with both equity and PnL (points missing either are left
 * out), each keeping the placed step it was stored with.
 */
export function storedSeries(points: readonly StoredCurvePoint[]): SeriesPoint[] {
  return strictlyAscending(points) ? inOrder(points) : joined(points);
}

/** Points in strictly ascending time (as every read returns them): one pass, no joins. */
function inOrder(points: readonly StoredCurvePoint[]): SeriesPoint[] {
  const out: SeriesPoint[] = [];
  for (const p of points) {
    if (p.equity === undefined || p.pnl === undefined || !Number.isFinite(p.ts)) continue;
    const equity = Number(p.equity);
    const pnl = Number(p.pnl);
    if (!Number.isFinite(equity) || !Number.isFinite(pnl)) continue;
    out.push(p.step === undefined ? { timestamp: p.ts, equity, pnl } : { timestamp: p.ts, equity, pnl, step: p.step });
  }
  return out;
}

function strictlyAscending(points: readonly StoredCurvePoint[]): boolean {
  for (let i = 1; i < points.length; i++) if (!(points[i]!.ts > points[i - 1]!.ts)) return false;
  return true;
}

/** Any points (repeated timestamps: the last of each curve wins): the two curves joined on their timestamps. */
function joined(points: readonly StoredCurvePoint[]): SeriesPoint[] {
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
