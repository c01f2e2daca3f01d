/**
 * How a deployment's chain request budget is split between the Lambdas that call the chain.
 *
 * Every Lambda instance runs its own token bucket at `CHAIN_RPS`, so what reaches the chain is
 * (rate per instance) x (instances). Two functions call the chain today, each with a hard cap on
 * its instances:
 * - `collect`: the SQS event source's `maxConcurrency` (`collectConcurrency`);
 * - `sign-revocation`: its reserved concurrency (`signerConcurrency`), human-paced (one confirmed
 *   click each), sharing a fixed reserve (`signerRps`).
 * A future consumer (e.g. a delegate watch) is one more term of {@link ChainRateBudget.consumers}.
 *
 * So `signerInstanceRps = floor(signerRps / signerConcurrency)`,
 * `collectRps = floor((totalRps - signerRps) / collectConcurrency)` (both to 0.01), and
 * `collectConcurrency * collectRps + signerConcurrency * signerInstanceRps <= totalRps`.
 */
export interface ChainRateBudget {
  /** The most requests per second this deployment may send to the chain. */
  readonly totalRps: number;
  /** `maxConcurrency` of the collect queue's event source (instances of `collect`). */
  readonly collectConcurrency: number;
  /** `CHAIN_RPS` of each `collect` instance. */
  readonly collectRps: number;
  /** Requests per second reserved out of the total for `sign-revocation` (all its instances). */
  readonly signerRps: number;
  /** Reserved concurrency of `sign-revocation` (its most instances). */
  readonly signerConcurrency: number;
  /** `CHAIN_RPS` of each `sign-revocation` instance. */
  readonly signerInstanceRps: number;
  /** Polls per hour the collect tier can sustain at `requestsPerPoll` chain requests each. */
  readonly pollsPerHour: number;
  /** Every chain consumer: its most instances and each instance's bucket. */
  readonly consumers: readonly ChainConsumer[];
}

/** One function that calls the chain. */
export interface ChainConsumer {
  readonly name: string;
  readonly instances: number;
  readonly rpsPerInstance: number;
}

/**
 * Chain requests one steady-state poll makes: `GET portfolio` for the new points, `GET portfolio`
 * at `1d` for the summary since tracking began, and `GET delegate-traders`.
 */
export const REQUESTS_PER_POLL = 3;

/** Smallest `maxConcurrency` an SQS event source accepts. */
export const MIN_EVENT_SOURCE_CONCURRENCY = 2;

const down = (x: number): number => Math.floor(x * 100) / 100;

/** The most requests per second all consumers together can send. */
export function worstCaseRps(budget: Pick<ChainRateBudget, 'consumers'>): number {
  return budget.consumers.reduce((sum, c) => sum + c.instances * c.rpsPerInstance, 0);
}

/** Splits `totalRps`; throws a RangeError when nothing would be left for `collect` or the signer. */
export function chainRateBudget(totalRps: number, collectConcurrency: number, signerRps: number, signerConcurrency = 1): ChainRateBudget {
  if (!Number.isInteger(collectConcurrency) || collectConcurrency < MIN_EVENT_SOURCE_CONCURRENCY) {
    throw new RangeError(`collectConcurrency must be an integer >= ${MIN_EVENT_SOURCE_CONCURRENCY}, got ${collectConcurrency}`);
  }
  if (!Number.isInteger(signerConcurrency) || signerConcurrency < 1) {
    throw new RangeError(`signerConcurrency must be an integer >= 1, got ${signerConcurrency}`);
  }
  const signerInstanceRps = down(signerRps / signerConcurrency);
  if (!(signerInstanceRps > 0)) {
    throw new RangeError(`signerRps ${signerRps} over ${signerConcurrency} signer instances leaves less than 0.01 rps each`);
  }
  const collectRps = down((totalRps - signerRps) / collectConcurrency);
  if (!(collectRps > 0)) {
    throw new RangeError(
      `chainRps ${totalRps} leaves nothing for collect after the signer's ${signerRps} rps over ${collectConcurrency} instances`,
    );
  }
  const pollsPerHour = Math.floor(((collectConcurrency * collectRps) / REQUESTS_PER_POLL) * 3600);
  const consumers: ChainConsumer[] = [
    { name: 'collect', instances: collectConcurrency, rpsPerInstance: collectRps },
    { name: 'sign-revocation', instances: signerConcurrency, rpsPerInstance: signerInstanceRps },
  ];
  return { totalRps, collectConcurrency, collectRps, signerRps, signerConcurrency, signerInstanceRps, pollsPerHour, consumers };
}
