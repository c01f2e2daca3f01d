import { createChainClient } from '../../../functions/chain/chainClient';
import type { ChainClient } from '../../../functions/chain/ports';
import { TokenBucket } from '../../../functions/shared/rateLimiter';
import { INTERVALS, type Interval } from '../../../functions/domain/interval';
import { SimControlClient, startSimulator, type RunningSimulator } from '../../../local/sim';

/** One `GET /portfolio` the report made, as it went over HTTP. */
export interface PortfolioRequest {
  account: string;
  from: number;
  to: number;
  interval: Interval;
}

export interface ReportChain {
  readonly sim: RunningSimulator;
  readonly control: SimControlClient;
  /** The chain client the report uses: real HTTP to the simulator, through a fetch that records each portfolio request. */
  readonly chain: ChainClient;
  /** A second client for the test's own reads (not recorded). */
  readonly reader: ChainClient;
  readonly requests: PortfolioRequest[];
  close(): Promise<void>;
}

const asInterval = (value: string | null): Interval => {
  const found = INTERVALS.find((i) => i === value);
  if (!found) throw new Error(`unexpected interval ${String(value)}`);
  return found;
};

/**
 * The chain simulator with its clock stopped at `nowMs` and 45 days of generated history for any
 * address, and chain clients over real HTTP; the report's client records every portfolio request.
 */
export async function startReportChain(nowMs: number, seed = 11): Promise<ReportChain> {
  const sim = await startSimulator({ seed, clock: { startMs: nowMs, speed: 0 }, historyDays: 45 });
  const requests: PortfolioRequest[] = [];
  const recording: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname.endsWith('/portfolio')) {
      const q = url.searchParams;
      requests.push({ account: q.get('account') ?? '', from: Number(q.get('from')), to: Number(q.get('to')), interval: asInterval(q.get('interval')) });
    }
    return fetch(input, init);
  };
  const client = (f?: typeof fetch) =>
    createChainClient({
      nodeUrl: sim.nodeUrl,
      indexerUrl: sim.indexerUrl,
      rps: 1_000,
      timeoutMs: 5_000,
      maxRetries: 2,
      retryBaseDelayMs: 5,
      rateLimiter: new TokenBucket({ ratePerSecond: 1_000 }),
      ...(f ? { fetch: f } : {}),
    });
  return { sim, control: new SimControlClient(sim.controlUrl), chain: client(recording), reader: client(), requests, close: () => sim.close() };
}
