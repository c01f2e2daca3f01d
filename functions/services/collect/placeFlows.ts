import { ChainError } from '../../chain/errors';
import type { ChainClient } from '../../chain/ports';
import type { CurvePoint } from '../../domain/curvePoint';
import { INTERVAL_MS, type Interval } from '../../domain/interval';
import type { PlacedStep } from '../../domain/placedStep';
import { alignCurves } from '../../domain/series';
import { isMarkedStep, refineStep, stepReturn } from '../../domain/stepReturn';
import type { StoredCurvePoint } from '../../store/storedCurvePoint';
import { fetchCurves } from './fetchCurves';
import type { RefinementBudget } from './refinementBudget';

/** The new points with their flow steps placed, and what it took. */
export interface PlacedFlows {
  readonly points: StoredCurvePoint[];
  /** `1m` requests made (each charged to the refinement budget). */
  readonly requests: number;
  readonly refined: number;
  /** Steps left conservative (marked). */
  readonly marked: number;
}

/**
 * Places the flow of every new step whose return depends on where its deposit or withdrawal
 * happened (`isMarkedStep`): one `GET /portfolio` at `1m` over the step (chunked like any
 * fetch), within `budget`, chained by `refineStep`. A step that cannot be placed (a `1m`
 * account, no budget, a chain failure, minutes that do not span it) keeps the conservative
 * return, marked. A step's start is the fetched point before it (the cursor's point is fetched
 * again for that); a first point has no step.
 */
export async function placeFlows(
  deps: { chain: ChainClient; budget: RefinementBudget | undefined; maxPointsPerRequest: number },
  query: { account: string; interval: Interval },
  fetched: { equity: readonly CurvePoint[]; pnl: readonly CurvePoint[] },
  points: readonly StoredCurvePoint[],
): Promise<PlacedFlows> {
  const series = alignCurves(fetched.equity, fetched.pnl);
  const index = new Map(series.map((p, i) => [p.timestamp, i]));
  const out: StoredCurvePoint[] = [];
  let requests = 0;
  let refined = 0;
  let marked = 0;
  for (const point of points) {
    const i = index.get(point.ts);
    const prev = i === undefined || i === 0 ? undefined : series[i - 1];
    const cur = i === undefined ? undefined : series[i];
    if (!prev || !cur || !isMarkedStep(prev, cur)) {
      out.push(point);
      continue;
    }
    const cost = Math.floor((cur.timestamp - prev.timestamp) / (INTERVAL_MS['1m'] * deps.maxPointsPerRequest + 1)) + 1;
    let step: PlacedStep | null = null;
    if (query.interval !== '1m' && deps.budget?.tryTake(cost)) {
      requests += cost;
      const minutes = await minuteSeries(deps, query.account, prev.timestamp, cur.timestamp);
      step = minutes ? refineStep(prev, cur, minutes) : null;
    }
    if (step?.placement === 'refined') refined += 1;
    else marked += 1;
    out.push({ ...point, step: step ?? { r: stepReturn(prev, cur), placement: 'conservative', fromTs: prev.timestamp } });
  }
  return { points: out, requests, refined, marked };
}

/** The step's `1m` series, or `null` when the chain could not give it (the step stays conservative). */
async function minuteSeries(deps: { chain: ChainClient; maxPointsPerRequest: number }, account: string, from: number, to: number) {
  try {
    const curves = await fetchCurves(deps.chain, { account, from, to, interval: '1m' }, deps.maxPointsPerRequest);
    return alignCurves(curves.equity, curves.pnl);
  } catch (error) {
    if (error instanceof ChainError) return null;
    throw error;
  }
}
