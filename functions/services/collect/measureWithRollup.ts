import { advanceRollup, rollupDrawdown, type DrawdownRollup } from '../../domain/drawdownRollup';
import { pointsBetween, type SeriesPoint } from '../../domain/series';
import type { CurvesRepository } from '../../store/curvesRepository';
import { storedSeries } from '../../store/storedSeries';

/** A drawdown measured from the stored rollup and the points after it. */
export type RollupMeasure =
  | {
      readonly kind: 'measured';
      /** `null` when the window holds no point. */
      readonly currentPct: number | null;
      readonly last: SeriesPoint | null;
      /** The rollup to store (`changed`: a unit closed since the stored one). */
      readonly sealed: DrawdownRollup;
      /** `sealed` with the newest unit's points folded in too (its last unit ends at the newest point); not to store. */
      readonly current: DrawdownRollup;
      readonly changed: boolean;
    }
  /** The store does not continue the rollup (its last point is gone or differs): measure the full window. */
  | { readonly kind: 'mismatch' };

/**
 * The current drawdown of the window `[from, now]` from a stored rollup (`from >= coveredFrom`):
 * reads the points from the rollup's last one on (the unit in progress, a few KB), and the part
 * of the unit straddling `from` only when that unit's maximum is before it.
 */
export async function measureWithRollup(
  curves: Pick<CurvesRepository, 'queryRange'>,
  address: string,
  stored: DrawdownRollup & { readonly last: SeriesPoint },
  from: number,
  now: number,
): Promise<RollupMeasure> {
  const unit = await curves.queryRange(address, stored.interval, stored.last.timestamp, now);
  const after = storedSeries(unit);
  const head = after[0];
  if (!head || head.timestamp !== stored.last.timestamp || head.equity !== stored.last.equity || head.pnl !== stored.last.pnl) {
    return { kind: 'mismatch' };
  }
  const { sealed, current } = advanceRollup(stored, after.slice(1), from);
  let outcome = rollupDrawdown(current, from);
  if (outcome.kind === 'needs-points') {
    const straddle =
      outcome.from >= head.timestamp
        ? pointsBetween(after, outcome.from, outcome.to)
        : storedSeries(await curves.queryRange(address, stored.interval, outcome.from, outcome.to));
    outcome = rollupDrawdown(current, from, straddle);
  }
  if (outcome.kind === 'needs-points') return { kind: 'mismatch' };
  return {
    kind: 'measured',
    currentPct: outcome.kind === 'drawdown' ? outcome.currentPct : null,
    last: outcome.kind === 'drawdown' ? outcome.last : null,
    sealed,
    current,
    changed: sealed !== stored,
  };
}
