import { INTERVAL_MS, type Interval } from '../../domain/interval';
import { type CurvePoint } from '../../domain/curvePoint';
import type { ChainClient } from '../../chain/ports';

/** Equity and PnL curve points fetched for one account over a window. */
export interface FetchedCurves {
  equity: CurvePoint[];
  pnl: CurvePoint[];
  requests: number;
  /** False when the budget stopped the fetch before the window's end: the points cover only its oldest chunks. */
  complete: boolean;
}

/** Chain requests a long fetch may take beyond its first chunk (the backfill share, e.g. `RefinementBudget`). */
export interface ChunkBudget {
  tryTake(requests: number): boolean;
}

/**
 * Fetches `[from, to]` of an account's curves at `interval`, in consecutive chunks of at most
 * `maxPointsPerRequest` points each (the chain's maximum range is unpublished), oldest first.
 * Any chunk failing fails the whole fetch, so a caller never stores a window with a hole in it.
 * With a `budget`, the first chunk is always fetched (what a due poll costs anyway) and each further
 * one only if the budget has a request for it now; the fetch stops at the first that does not
 * fit (`complete: false`), so what it returns is the window's oldest part, without a hole.
 */
export async function fetchCurves(
  chain: ChainClient,
  query: { account: string; from: number; to: number; interval: Interval },
  maxPointsPerRequest: number,
  budget?: ChunkBudget,
): Promise<FetchedCurves> {
  const span = INTERVAL_MS[query.interval] * maxPointsPerRequest;
  const out: FetchedCurves = { equity: [], pnl: [], requests: 0, complete: true };
  for (let from = query.from; from <= query.to; from += span + 1) {
    if (out.requests > 0 && budget && !budget.tryTake(1)) {
      out.complete = false;
      break;
    }
    const to = Math.min(query.to, from + span);
    const page = await chain.getPortfolio({ account: query.account, from, to, interval: query.interval });
    out.equity.push(...page.equity);
    out.pnl.push(...page.pnl);
    out.requests += 1;
  }
  return out;
}
