/**
 * How a deployment's chain request budget is split between the Lambdas that call the chain.
 *
 * Every Lambda instance runs its own token bucket at `CHAIN_RPS`, so what reaches the chain is
 * (rate per instance) x (instances). Three functions call the chain:
 * - `collect`, whose instances are capped by the SQS event source's `maxConcurrency`;
 * - `sign-revocation`, human-paced (one confirmed click each), given a fixed reserve;
 * - `daily-report` (three `GET /portfolio` per report, one run at a time), given a fixed reserve.
 *
 * So `collectRps = floor((totalRps - signerRps - reportRps) / collectConcurrency)` (to 0.01) and
 * `collectConcurrency * collectRps + signerRps + reportRps <= totalRps`.
 */
export interface ChainRateBudget {
  /** The most requests per second this deployment may send to the chain. */
  readonly totalRps: number;
  /** `maxConcurrency` of the collect queue's event source (instances of `collect`). */
  readonly collectConcurrency: number;
  /** `CHAIN_RPS` of each `collect` instance. */
  readonly collectRps: number;
  /** `CHAIN_RPS` of `sign-revocation`, reserved out of the total. */
  readonly signerRps: number;
  /** `CHAIN_RPS` of `daily-report`, reserved out of the total. */
  readonly reportRps: number;
  /** Polls per hour the collect tier can sustain at `requestsPerPoll` chain requests each. */
  readonly pollsPerHour: number;
}

/**
 * Chain requests one steady-state poll makes: `GET portfolio` for the new points, `GET portfolio`
 * at `1d` for the summary since tracking began, and `GET delegate-traders`.
 */
export const REQUESTS_PER_POLL = 3;

/** Smallest `maxConcurrency` an SQS event source accepts. */
export const MIN_EVENT_SOURCE_CONCURRENCY = 2;

/** Splits `totalRps`; throws a RangeError when nothing would be left for `collect`. */
export function chainRateBudget(totalRps: number, collectConcurrency: number, signerRps: number, reportRps = 0): ChainRateBudget {
  if (!Number.isInteger(collectConcurrency) || collectConcurrency < MIN_EVENT_SOURCE_CONCURRENCY) {
    throw new RangeError(`collectConcurrency must be an integer >= ${MIN_EVENT_SOURCE_CONCURRENCY}, got ${collectConcurrency}`);
  }
  const collectRps = Math.floor(((totalRps - signerRps - reportRps) / collectConcurrency) * 100) / 100;
  if (!(collectRps > 0)) {
    throw new RangeError(
      `chainRps ${totalRps} leaves nothing for collect after the signer's ${signerRps} rps and the report's ${reportRps} rps over ${collectConcurrency} instances`,
    );
  }
  const pollsPerHour = Math.floor(((collectConcurrency * collectRps) / REQUESTS_PER_POLL) * 3600);
  return { totalRps, collectConcurrency, collectRps, signerRps, reportRps, pollsPerHour };
}
