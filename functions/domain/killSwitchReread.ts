import { drawdown } from './drawdown';
import type { SeriesPoint } from './series';

/** How many minutes on each side of the peak (and before the trough) the `1m` re-read covers. */
export const REREAD_MINUTES = 5;

const MINUTE_MS = 60_000;

/** The `1m` windows the kill switch re-reads before acting: around the peak, and up to the trough. */
export interface RereadWindows {
  readonly peak: { readonly from: number; readonly to: number };
  readonly trough: { readonly from: number; readonly to: number };
}

/** The re-read windows for a drawdown from `peakAt` to `troughAt` (the newest point). */
export function rereadWindows(peakAt: number, troughAt: number): RereadWindows {
  const span = REREAD_MINUTES * MINUTE_MS;
  return {
    peak: { from: Math.max(0, peakAt - span), to: Math.min(troughAt, peakAt + span) },
    trough: { from: Math.max(0, troughAt - span), to: troughAt },
  };
}

/** The point the re-read settles on for the peak or the trough, and how many `1m` samples it saw. */
export interface RereadPoint {
  readonly at: number;
  readonly equity: number;
  readonly pnl: number;
  readonly samples: number;
}

/** What the `1m` re-read says of a drawdown. */
export type RereadVerdict =
  | { readonly kind: 'confirmed' | 'refuted'; readonly drawdownPct: number; readonly peak: RereadPoint; readonly trough: RereadPoint }
  | { readonly kind: 'unreadable' };

/**
 * Re-measures the drawdown of `series` (stored, at the account's interval) with its peak and its
 * newest point replaced by what the chain's `1m` curves show around them, and says whether
 * `levelPct` still holds. Each point takes the median `1m` sample by PnL (the lower one at the
 * peak, the upper one at the trough, so a doubt never adds to a loss): a one-sample spike that
 * set the peak is outvoted by the minutes around it, and the drawdown is measured again without
 * it. A replaced point loses its placed flow step (and so does the step after it): the step is
 * measured again from the new values. `unreadable`: a window without samples.
 */
export function rereadDrawdown(
  series: readonly SeriesPoint[],
  peakAt: number,
  minutes: { readonly peak: readonly SeriesPoint[]; readonly trough: readonly SeriesPoint[] },
  levelPct: number,
): RereadVerdict {
  const last = series[series.length - 1];
  const peakSample = median(minutes.peak, 'lower');
  const troughSample = median(minutes.trough, 'upper');
  if (!last || !peakSample || !troughSample || !series.some((p) => p.timestamp === peakAt)) return { kind: 'unreadable' };
  const replaced = new Map<number, SeriesPoint>([
    [peakAt, peakSample],
    [last.timestamp, troughSample],
  ]);
  const out: SeriesPoint[] = [];
  let previousChanged = false;
  for (const point of series) {
    const sample = replaced.get(point.timestamp);
    const changed = sample !== undefined && (sample.equity !== point.equity || sample.pnl !== point.pnl);
    const values = sample === undefined ? point : { ...point, equity: sample.equity, pnl: sample.pnl };
    const { step, ...bare } = values;
    out.push(changed || previousChanged || step === undefined ? bare : { ...bare, step });
    previousChanged = changed;
  }
  const result = drawdown(out);
  if (!result) return { kind: 'unreadable' };
  const point = (sample: SeriesPoint, at: number, samples: number): RereadPoint => ({ at, equity: sample.equity, pnl: sample.pnl, samples });
  return {
    kind: result.currentPct >= levelPct ? 'confirmed' : 'refuted',
    drawdownPct: result.currentPct,
    peak: point(peakSample, peakAt, minutes.peak.length),
    trough: point(troughSample, last.timestamp, minutes.trough.length),
  };
}

function median(samples: readonly SeriesPoint[], side: 'lower' | 'upper'): SeriesPoint | undefined {
  const sorted = [...samples].sort((a, b) => a.pnl - b.pnl);
  const middle = (sorted.length - 1) / 2;
  return sorted[side === 'lower' ? Math.floor(middle) : Math.ceil(middle)];
}
