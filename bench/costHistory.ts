import { performance } from 'node:perf_hooks';
import type { ChainClient } from '../functions/chain/ports';
import type { Interval } from '../functions/domain/interval';
import { fetchCurves } from '../functions/services/collect/fetchCurves';
import { newCurvePoints } from '../functions/services/collect/newCurvePoints';
import type { CurvesRepository } from '../functions/store/curvesRepository';
import { mapConcurrent } from '../functions/shared/concurrency';

/** Accounts seeded at once (each one's points written by `putPoints` in its own concurrent batches). */
const SEED_CONCURRENCY = 8;

/** What seeding wrote. */
export interface SeededHistory {
  readonly points: number;
  readonly wallMs: number;
}

/**
 * Gives each account the curve history `[fromMs, toMs]` as the chain shows it: fetched in chunks
 * (`fetchCurves`, the chain's own pages) and written through the public `CurvesRepository.putPoints`
 * with the TTL a point written now gets, so whatever layout the repository stores points in, the
 * polls that follow read and extend the same history a long-tracked account has.
 */
export async function seedCurveHistory(
  deps: { chain: ChainClient; curves: CurvesRepository; expiresAt: number; maxPointsPerRequest: number },
  addresses: readonly string[],
  interval: Interval,
  window: { fromMs: number; toMs: number },
): Promise<SeededHistory> {
  const started = performance.now();
  const counts = await mapConcurrent(addresses, SEED_CONCURRENCY, async (address) => {
    const fetched = await fetchCurves(deps.chain, { account: address, from: window.fromMs, to: window.toMs, interval }, deps.maxPointsPerRequest);
    const points = newCurvePoints(fetched.equity, fetched.pnl, null);
    if (points.length > 0) await deps.curves.putPoints(address, interval, points, deps.expiresAt);
    return points.length;
  });
  return { points: counts.reduce((a, b) => a + b, 0), wallMs: performance.now() - started };
}
