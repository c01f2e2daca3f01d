import { INTERVAL_MS, type Interval } from '../../domain/interval';
import { type CurvePoint } from '../../domain/curvePoint';
import type { ChainClient } from '../../chain/ports';

/** Equity and PnL curve points fetched for one account over a window. */
export interface FetchedCurves {
  equity: CurvePoint[];
  pnl: CurvePoint[];
  requests: number;
}

/**
 * Fetches `[from, to]` of an account's curves at `interval`, in consecutive chunks of at most
 * `maxPointsPerRequest` points each (the chain's maximum range is unpublished), oldest first.
 * Any chunk failing fails the whole fetch, so a caller never stores a window with a hole in it.
 */
export async function fetchCurves(
  chain: ChainClient,
  query: { account: string; from: number; to: number; interval: Interval },
  maxPointsPerRequest: number,
): Promise<FetchedCurves> {
  const span = INTERVAL_MS[query.interval] * maxPointsPerRequest;
  const out: FetchedCurves = { equity: [], pnl: [], requests: 0 };
  for (let from = query.from; from <= query.to; from += span + 1) {
    const to = Math.min(query.to, from + span);
    const page = await chain.getPortfolio({ account: query.account, from, to, interval: query.interval });
    out.equity.push(...page.equity);
    out.pnl.push(...page.pnl);
    out.requests += 1;
  }
  return out;
}
