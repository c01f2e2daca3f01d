import { INTERVAL_MS, type Interval } from './interval';
import type { SeriesPoint } from './series';
import { logGrowth, stepReturn } from './stepReturn';

/**
 * Span of one rollup unit per interval: about 90 units per drawdown window, at most 60 points
 * per unit, so the unsealed unit a poll reads stays a few KB at every interval.
 */
export const ROLLUP_UNIT_MS: Readonly<Record<Interval, number>> = {
  '1m': 60 * INTERVAL_MS['1m'],
  '5m': 48 * INTERVAL_MS['5m'],
  '15m': 48 * INTERVAL_MS['15m'],
  '30m': 48 * INTERVAL_MS['30m'],
  '1h': 24 * INTERVAL_MS['1h'],
  '4h': 6 * INTERVAL_MS['4h'],
  '1d': 7 * INTERVAL_MS['1d'],
};

/**
 * The performance index `G` (the sum of `logGrowth(stepReturn)` from the rollup's first point) of
 * one unit of time: its highest value, where that was last reached, and its value at the unit's
 * last point.
 */
export interface RollupUnit {
  /** `floor(timestamp / unitMs)` of the unit's points. */
  readonly index: number;
  readonly max: number;
  readonly maxAt: number;
  readonly end: number;
}

/**
 * What the flow-adjusted drawdown (`domain/drawdown`) of any window starting at or after
 * `coveredFrom` needs of the points up to `last`: per-unit maxima of the index. The drawdown at
 * the last point is `max over window points of G - G(last)`, whatever the anchor of `G`, so the
 * window's first point needs no special treatment.
 */
export interface DrawdownRollup {
  readonly interval: Interval;
  readonly unitMs: number;
  /** Every series point with `coveredFrom <= timestamp <= last.timestamp` is folded in. */
  readonly coveredFrom: number;
  /**
   * The point before the latest total-loss step (`G` restarts at 0 after it and the units before
   * are dropped): a window holding it is at 100%.
   */
  readonly lossPrevAt: number | null;
  readonly units: readonly RollupUnit[];
  /** The newest folded point and `G` there; `null` before the first point. */
  readonly last: (SeriesPoint & { readonly g: number }) | null;
}

/** A stored rollup with a point folded in: one a window's drawdown may be measured from. */
export type UsableRollup = DrawdownRollup & { readonly last: NonNullable<DrawdownRollup['last']> };

/**
 * The stored rollup when the drawdown of the window starting at `from` may be measured from it,
 * else `null`: it holds a point, is of the account's `interval` and covers the window's start;
 * it ends before the points a poll just wrote (`writtenFromMs`: a rollup ending at or after them
 * may no longer match the store); and the store keeps points longer than the window
 * (`pointsOutliveWindow`), so the points after the rollup are still there to continue it.
 */
export function usableRollup(
  stored: DrawdownRollup | null,
  window: { readonly interval: Interval; readonly from: number; readonly writtenFromMs?: number | null; readonly pointsOutliveWindow?: boolean },
): UsableRollup | null {
  if (!stored?.last || stored.interval !== window.interval || stored.coveredFrom > window.from) return null;
  const writtenFromMs = window.writtenFromMs ?? null;
  if (writtenFromMs !== null && writtenFromMs <= stored.last.timestamp) return null;
  if (window.pointsOutliveWindow === false) return null;
  return { ...stored, last: stored.last };
}

/** The rollup's result for one window. */
export type RollupDrawdown =
  | { readonly kind: 'empty' }
  | { readonly kind: 'drawdown'; readonly currentPct: number; readonly last: SeriesPoint }
  /** The window starts inside a unit whose maximum lies before it: its points in `[from, to]` are needed. */
  | { readonly kind: 'needs-points'; readonly from: number; readonly to: number };

/** A rollup with nothing folded yet, claiming every point from `coveredFrom` on. */
export function emptyRollup(interval: Interval, coveredFrom: number): DrawdownRollup {
  return { interval, unitMs: ROLLUP_UNIT_MS[interval], coveredFrom, lossPrevAt: null, units: [], last: null };
}

/** Folds `points` (sorted, all after `rollup.last`) into the rollup. */
export function foldPoints(rollup: DrawdownRollup, points: readonly SeriesPoint[]): DrawdownRollup {
  const units = [...rollup.units];
  let { last, lossPrevAt } = rollup;
  for (const p of points) {
    let g = 0;
    if (last) {
      const step = logGrowth(stepReturn(last, p));
      if (step === -Infinity) {
        lossPrevAt = last.timestamp;
        units.length = 0;
      } else {
        g = last.g + step;
      }
    }
    const index = Math.floor(p.timestamp / rollup.unitMs);
    const open = units[units.length - 1];
    if (open?.index === index) {
      units[units.length - 1] = g >= open.max ? { index, max: g, maxAt: p.timestamp, end: g } : { ...open, end: g };
    } else {
      units.push({ index, max: g, maxAt: p.timestamp, end: g });
    }
    last = { timestamp: p.timestamp, equity: p.equity, pnl: p.pnl, g };
  }
  return { ...rollup, units, last, lossPrevAt };
}

/** Forgets the units wholly before `from` (no later window reaches them). */
export function dropBefore(rollup: DrawdownRollup, from: number): DrawdownRollup {
  if (from <= rollup.coveredFrom) return rollup;
  return {
    ...rollup,
    coveredFrom: from,
    lossPrevAt: rollup.lossPrevAt !== null && rollup.lossPrevAt >= from ? rollup.lossPrevAt : null,
    units: rollup.units.filter((u) => (u.index + 1) * rollup.unitMs > from),
  };
}

/** The rollup to store after a poll, and the one to measure the window on. */
export interface AdvancedRollup {
  /** Folded up to the last point before the newest point's unit; the input itself when no unit closed. */
  readonly sealed: DrawdownRollup;
  /** `sealed` plus the newest unit's points. */
  readonly current: DrawdownRollup;
}

/**
 * Folds the points after `rollup.last` (sorted) for a window starting at `from`: the units
 * before the newest point's are sealed (and units no window reaches are dropped); the newest
 * unit's points are folded only into `current`, so the stored rollup changes once per unit.
 */
export function advanceRollup(rollup: DrawdownRollup, points: readonly SeriesPoint[], from: number): AdvancedRollup {
  const newest = points[points.length - 1];
  if (!newest) return { sealed: rollup, current: rollup };
  const openStart = Math.floor(newest.timestamp / rollup.unitMs) * rollup.unitMs;
  const closing = points.filter((p) => p.timestamp < openStart);
  const sealed = closing.length > 0 ? dropBefore(foldPoints(rollup, closing), from) : rollup;
  return {
    sealed,
    current: foldPoints(
      sealed,
      points.filter((p) => p.timestamp >= openStart),
    ),
  };
}

/**
 * The rollup of a window's exact series: every unit but the one of the newest point (which
 * later points may still extend), so it is rewritten about once per unit.
 */
export function rollupOfSeries(interval: Interval, from: number, series: readonly SeriesPoint[]): DrawdownRollup {
  const newest = series[series.length - 1];
  const unitMs = ROLLUP_UNIT_MS[interval];
  if (!newest) return emptyRollup(interval, from);
  const openStart = Math.floor(newest.timestamp / unitMs) * unitMs;
  return foldPoints(
    emptyRollup(interval, from),
    series.filter((p) => p.timestamp >= from && p.timestamp < openStart),
  );
}

/**
 * The current drawdown of the window `[from, last]` (`from >= coveredFrom`), equal to
 * `drawdown(window series).currentPct` up to float rounding. When the window starts inside a unit
 * whose maximum is before `from`, pass the points `needs-points` names as `straddle`.
 */
export function rollupDrawdown(rollup: DrawdownRollup, from: number, straddle?: readonly SeriesPoint[]): RollupDrawdown {
  const { last, unitMs } = rollup;
  if (from < rollup.coveredFrom) throw new RangeError(`window starts at ${from}, before the rollup's coverage (${rollup.coveredFrom})`);
  if (!last || last.timestamp < from) return { kind: 'empty' };
  const lastPoint = { timestamp: last.timestamp, equity: last.equity, pnl: last.pnl };
  if (rollup.lossPrevAt !== null && rollup.lossPrevAt >= from) return { kind: 'drawdown', currentPct: 100, last: lastPoint };
  let peak = last.g;
  for (const unit of rollup.units) {
    const start = unit.index * unitMs;
    if (start >= from || unit.maxAt >= from) {
      peak = Math.max(peak, unit.max);
    } else if ((unit.index + 1) * unitMs > from) {
      if (!straddle) return { kind: 'needs-points', from, to: Math.min(start + unitMs - 1, last.timestamp) };
      peak = Math.max(peak, straddlePeak(unit, straddle));
    }
  }
  return { kind: 'drawdown', currentPct: -Math.expm1(-(peak - last.g)) * 100, last: lastPoint };
}

/** The unit's highest `G` among `points` (its last points), walking back from its end. */
function straddlePeak(unit: RollupUnit, points: readonly SeriesPoint[]): number {
  if (points.length === 0) return -Infinity;
  let g = unit.end;
  let peak = unit.end;
  for (let i = points.length - 1; i > 0; i--) {
    g -= logGrowth(stepReturn(points[i - 1]!, points[i]!));
    peak = Math.max(peak, g);
  }
  return peak;
}

/**
 * How far apart the rollup's drawdown and the exact one may be, percent points: far above the
 * float rounding between the two sums (below 1e-9 in the property test) and far below any
 * threshold's meaning. A rollup figure this close to a level boundary is never acted on.
 */
export const ROLLUP_TOLERANCE_PCT = 1e-6;
