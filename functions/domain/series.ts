import type { CurvePoint } from './curvePoint';
import type { PlacedStep } from './placedStep';

/** One instant of an account's history with both curves as numbers (USD). */
export interface SeriesPoint {
  timestamp: number;
  equity: number;
  pnl: number;
  /** The return of the step ending here, as collection placed its flow (see `stepReturn`); absent on most points. */
  step?: PlacedStep;
}

function numericByTimestamp(points: readonly CurvePoint[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const p of points) {
    const value = Number(p.value);
    if (Number.isFinite(p.timestamp) && Number.isFinite(value)) out.set(p.timestamp, value);
  }
  return out;
}

/**
 * Joins the equity and PnL curves (decimal strings, as the chain sends them) on their timestamps
 * into one series sorted by time. A timestamp present in only one curve, or whose value is not a
 * finite number, is skipped; when a timestamp repeats within a curve the last occurrence wins.
 */
export function alignCurves(equity: readonly CurvePoint[], pnl: readonly CurvePoint[]): SeriesPoint[] {
  const pnlAt = numericByTimestamp(pnl);
  const out: SeriesPoint[] = [];
  for (const [timestamp, eq] of numericByTimestamp(equity)) {
    const p = pnlAt.get(timestamp);
    if (p !== undefined) out.push({ timestamp, equity: eq, pnl: p });
  }
  return out.sort((a, b) => a.timestamp - b.timestamp);
}

/** The points with `from <= timestamp <= to`, keeping order. */
export function pointsBetween(series: readonly SeriesPoint[], from: number, to: number): SeriesPoint[] {
  return series.filter((p) => p.timestamp >= from && p.timestamp <= to);
}
