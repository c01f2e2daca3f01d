import { createChainClient } from '../functions/chain/chainClient';
import type { ChainClient } from '../functions/chain/ports';
import { TokenBucket } from '../functions/shared/rateLimiter';

/**
 * The chain client a simulated-clock benchmark (chaos, channels) reads the local simulator with:
 * no rate to keep (1,000/s), two quick retries, and 60 s of wall time per request, because the
 * simulator on a loaded machine is not the chain being measured (a slow chain is simulated on the
 * clock). `fetch`: e.g. one that holds the simulated clock while the request is in flight.
 */
export function simulatorChain(sim: { readonly nodeUrl: string; readonly indexerUrl: string }, fetch?: typeof globalThis.fetch): ChainClient {
  return createChainClient({
    nodeUrl: sim.nodeUrl,
    indexerUrl: sim.indexerUrl,
    rps: 1_000,
    timeoutMs: 60_000,
    maxRetries: 2,
    retryBaseDelayMs: 5,
    ...(fetch ? { fetch } : {}),
    rateLimiter: new TokenBucket({ ratePerSecond: 1_000 }),
  });
}
