import { createChainClient } from '../functions/chain/chainClient';
import type { ChainClient } from '../functions/chain/ports';
import { TokenBucket, type TokenBucketOptions } from '../functions/shared/rateLimiter';

/** The chain client of the benchmark and the HTTP requests it sent since the last reset. */
export interface CountedChain {
  readonly chain: ChainClient;
  /** The bucket every request waits on (`CHAIN_RPS`, burst as in production: one second's worth). */
  readonly bucket: TokenBucket;
  /** Requests sent (retries included), by route (`portfolio`, `delegate-traders`, ...). */
  requests(): { total: number; byRoute: ReadonlyMap<string, number> };
  reset(): void;
}

/** The bucket's burst (default: one second's worth, as deployed) and clock (default `performance.now`). */
export type CountedChainOptions = Pick<TokenBucketOptions, 'burst' | 'now'>;

/**
 * A chain client as the deployed `collect` builds it (one token bucket at `rps`, the default
 * timeouts and retries), over a `fetch` that counts every request it sends.
 */
export function countedChain(urls: { nodeUrl: string; indexerUrl: string }, rps: number, options: CountedChainOptions = {}): CountedChain {
  let byRoute = new Map<string, number>();
  const countingFetch: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const route = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
    byRoute.set(route, (byRoute.get(route) ?? 0) + 1);
    return fetch(input, init);
  };
  const bucket = new TokenBucket({ ratePerSecond: rps, ...options });
  const chain = createChainClient({ ...urls, rps, timeoutMs: 10_000, maxRetries: 3, fetch: countingFetch, rateLimiter: bucket });
  return {
    chain,
    bucket,
    requests: () => ({ total: [...byRoute.values()].reduce((a, b) => a + b, 0), byRoute: new Map(byRoute) }),
    reset: () => {
      byRoute = new Map();
    },
  };
}
