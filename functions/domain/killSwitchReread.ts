import { drawdown } from './drawdown';
import type { SeriesPoint } from './series';

const MINUTE_MS = 60_000;

/** Windows at most this many minutes apart are read in one request. */
export const REREAD_MERGE_MINUTES = 10;

/** One `1m` read of the re-read: `from` and `to` inclusive. */
export interface RereadWindow {
  readonly from: number;
  readonly to: number;
}

/**
 * The `1m` reads the kill switch makes before acting on a drawdown from `peakAt` to `troughAt`
 * (the point it acts on): the minutes on each side of the peak, and the minute before the trough
 * with the trough's own. One read when the two are within `REREAD_MERGE_MINUTES` of each other (a
 * fast loss), two otherwise.
 */
export function rereadWindows(peakAt: number, troughAt: number): readonly RereadWindow[] {
  const peak = { from: Math.max(0, peakAt - MINUTE_MS), to: Math.min(troughAt, peakAt + MINUTE_MS) };
  const trough = { from: Math.max(0, troughAt - MINUTE_MS), to: troughAt };
  if (trough.from - peak.to <= REREAD_MERGE_MINUTES * MINUTE_MS) return [{ from: Math.min(peak.from, trough.from), to: trough.to }];
  return [peak, trough];
}

/** A `1m` sample the re-read settled on, and the drawdown measured at it. */
export interface RereadMinute {
  readonly at: number;
  readonly equity: number;
  readonly pnl: number;
  readonly drawdownPct: number;
}

/** The value the re-read gives the peak, and how many `1m` samples it saw around it. */
export interface RereadPeak {
  readonly at: number;
  readonly equity: number;
  readonly pnl: number;
  readonly samples: number;
}

/** What the `1m` re-read says of a drawdown. */
export type RereadVerdict =
  | {
      readonly kind: 'confirmed' | 'refuted';
      /** The lower of the two minutes' drawdowns: what the level was held at. */
      readonly drawdownPct: number;
      readonly peak: RereadPeak;
      /** The minute before the trough, and the trough's. */
      readonly minutes: readonly [RereadMinute, RereadMinute];
    }
  | { readonly kind: 'unreadable' };

/**
 * Whether a drawdown the exact series (`series`, at the account's interval) shows at `troughAt`
 * is a loss the chain's `1m` curves (`minutes`, read over `rereadWindows`) hold for two minutes:
 *
 * - the peak counts only as high as the account held for two consecutive minutes: the peak's
 *   sample, but no higher than the higher of the minutes before and after it (a one-sample spike
 *   up at the peak is not the peak; a real peak with a flat minute beside it keeps its value);
 * - the minute before `troughAt` and `troughAt`'s own are both measured from that peak, with every
 *   unplaced flow at its favourable placement (a withdrawal is never a loss, a doubt never adds to
 *   one); confirmed only when both reach `levelPct`, so a one-sample print down at the trough,
 *   or a loss that has not yet held a minute, is refuted.
 *
 * The peak's point is replaced in the series (losing its placed step and the next point's, which
 * are measured again from the new value); the two minutes follow the series' points before them.
 * `unreadable`: the trough's two minutes or both of the peak's neighbours are missing.
 */
export function rereadDrawdown(
  series: readonly SeriesPoint[],
  at: { readonly peakAt: number; readonly troughAt: number },
  minutes: readonly SeriesPoint[],
  levelPct: number,
): RereadVerdict {
  const sample = new Map(minutes.map((m) => [m.timestamp, m]));
  const before = sample.get(at.troughAt - MINUTE_MS);
  const trough = sample.get(at.troughAt);
  const peakPoint = sample.get(at.peakAt) ?? series.find((p) => p.timestamp === at.peakAt);
  const neighbours = [sample.get(at.peakAt - MINUTE_MS), sample.get(at.peakAt + MINUTE_MS)].filter((m) => m !== undefined);
  const highestNeighbour = neighbours.reduce<SeriesPoint | undefined>((best, m) => (best === undefined || m.pnl > best.pnl ? m : best), undefined);
  if (!before || !trough || !peakPoint || !highestNeighbour) return { kind: 'unreadable' };
  const held = highestNeighbour.pnl < peakPoint.pnl ? highestNeighbour : peakPoint;

  const base = withPointReplaced(
    series.filter((p) => p.timestamp < before.timestamp),
    at.peakAt,
    held,
  );
  const measureAt = (points: readonly SeriesPoint[]): number => drawdown(points)?.favourableCurrentPct ?? 0;
  const bare = (m: SeriesPoint): SeriesPoint => ({ timestamp: m.timestamp, equity: m.equity, pnl: m.pnl });
  const beforePct = measureAt([...base, bare(before)]);
  const troughPct = measureAt([...base, bare(before), bare(trough)]);
  const minute = (m: SeriesPoint, drawdownPct: number): RereadMinute => ({ at: m.timestamp, equity: m.equity, pnl: m.pnl, drawdownPct });
  return {
    kind: beforePct >= levelPct && troughPct >= levelPct ? 'confirmed' : 'refuted',
    drawdownPct: Math.min(beforePct, troughPct),
    peak: { at: at.peakAt, equity: held.equity, pnl: held.pnl, samples: neighbours.length + (sample.has(at.peakAt) ? 1 : 0) },
    minutes: [minute(before, beforePct), minute(trough, troughPct)],
  };
}

/** `series` with the point at `at` (if any) given `values`' equity and PnL; it and the next point lose their placed steps when that changes them. */
function withPointReplaced(series: readonly SeriesPoint[], at: number, values: SeriesPoint): SeriesPoint[] {
  const out: SeriesPoint[] = [];
  let previousChanged = false;
  for (const point of series) {
    const changed = point.timestamp === at && (point.equity !== values.equity || point.pnl !== values.pnl);
    const { step, ...bare } = changed ? { ...point, equity: values.equity, pnl: values.pnl } : point;
    out.push(changed || previousChanged || step === undefined ? bare : { ...bare, step });
    previousChanged = changed;
  }
  return out;
}
