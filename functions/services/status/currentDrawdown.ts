import type { TrackedAccount } from '../../domain/account';
import { drawdown } from '../../domain/drawdown';
import { lookbackWindowMs } from '../../domain/lookbackWindow';
import type { CurvesRepository } from '../../store/curvesRepository';
import { storedSeries } from '../../store/storedSeries';

/** The account's flow-adjusted drawdown now, from stored points: what `status` and `alerts list` show. */
export interface CurrentDrawdown {
  readonly currentPct: number;
  readonly maxPct: number;
  readonly dollarDrawdown: number;
  readonly peakAt: number;
}

/** The default window the drawdown is measured over (as collection measures it). */
export const STATUS_LOOKBACK_MS = 90 * 86_400_000;

/**
 * The drawdown of `account` at `now`, measured on its stored curve over `lookbackMs` (widened for
 * long intervals, as collection does); `null` without enough points. One range query, no chain call.
 */
export async function currentDrawdown(
  curves: Pick<CurvesRepository, 'queryRange'>,
  account: Pick<TrackedAccount, 'address' | 'interval'>,
  now: number,
  lookbackMs = STATUS_LOOKBACK_MS,
): Promise<CurrentDrawdown | null> {
  const points = await curves.queryRange(account.address, account.interval, Math.max(0, now - lookbackWindowMs(account.interval, lookbackMs)), now);
  const dd = drawdown(storedSeries(points));
  return dd ? { currentPct: dd.currentPct, maxPct: dd.maxPct, dollarDrawdown: dd.dollarDrawdown, peakAt: dd.peakAt } : null;
}
