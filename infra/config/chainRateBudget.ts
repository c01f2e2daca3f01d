import { chainBurst } from '../../functions/shared/rateLimiter';

/**
 * How a deployment's chain request budget is split between the Lambdas that call the chain.
 *
 * Every Lambda instance runs its own token bucket at `CHAIN_RPS`, so what reaches the chain is
 * (rate per instance) x (instances). Three functions call the chain, each with a hard cap on its
 * instances:
 * - `collect`: the SQS event source's `maxConcurrency` (`collectConcurrency`);
 * - `sign-revocation`: its reserved concurrency (`signerConcurrency`), human-paced (one confirmed
 *   click each), sharing a fixed reserve (`signerRps`);
 * - the report worker (`daily-report`, three `GET /portfolio` per report): its most instances
 *   (`reportConcurrency`), sharing a fixed reserve (`reportRps`).
 * A further consumer is one more term of {@link ChainRateBudget.consumers}.
 *
 * So `signerInstanceRps = floor(signerRps / signerConcurrency)`,
 * `reportInstanceRps = floor(reportRps / reportConcurrency)`,
 * `collectRps = floor((totalRps - signerRps - reportRps) / collectConcurrency)` (all to 0.01), and
 * the sum of instances x rate over every consumer is at most `totalRps`.
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
  /** Requests per second reserved out of the total for the report worker (all its instances). */
  readonly reportRps: number;
  /** Most instances of the report worker. */
  readonly reportConcurrency: number;
  /** `CHAIN_RPS` of each report worker instance. */
  readonly reportInstanceRps: number;
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
 * The most requests all consumers' buckets can send at once, each instance bursting its
 * `chainBurst` together: within `totalRps` whenever each instance's rate is at least 1.
 */
export function worstCaseBurst(budget: Pick<ChainRateBudget, 'consumers'>): number {
  return budget.consumers.reduce((sum, c) => sum + c.instances * chainBurst(c.rpsPerInstance), 0);
}

/**
 * Chain requests one steady-state poll makes: `GET portfolio` for the new points, `GET portfolio`
 * at `1d` for the summary since tracking began, and `GET delegate-traders`.
 */
export const REQUESTS_PER_POLL = 3;

/** Smallest `maxConcurrency` an SQS event source accepts. */
export const MIN_EVENT_SOURCE_CONCURRENCY = 2;

/**
 * Default collect instances (`collectConcurrency`): the fewest SQS allows. Collect's time is mostly
 * waiting on its instance's bucket, billed at ~1/`collectRps` s per chain request, so the same budget
 * over fewer instances (each a larger share) bills proportionally less: 2 instances at 8.5 rps
 * cost half what 4 at 4.25 do, and 2 x 8.5 rps sustain the same polls per hour.
 */
export const DEFAULT_COLLECT_CONCURRENCY = MIN_EVENT_SOURCE_CONCURRENCY;

const down = (x: number): number => Math.floor(x * 100) / 100;

/** The most requests per second all consumers together can send. */
export function worstCaseRps(budget: Pick<ChainRateBudget, 'consumers'>): number {
  return budget.consumers.reduce((sum, c) => sum + c.instances * c.rpsPerInstance, 0);
}

/** How many instances the reserved consumers run. */
export interface ReserveConcurrency {
  readonly signerConcurrency?: number;
  readonly reportRps?: number;
  readonly reportConcurrency?: number;
}

/** Splits `totalRps`; throws a RangeError when nothing would be left for `collect`, the signer or the reports. */
export function chainRateBudget(totalRps: number, collectConcurrency: number, signerRps: number, reserve: ReserveConcurrency = {}): ChainRateBudget {
  const { signerConcurrency = 1, reportRps = 0, reportConcurrency = 1 } = reserve;
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
  if (!Number.isInteger(reportConcurrency) || reportConcurrency < 1) {
    throw new RangeError(`reportConcurrency must be an integer >= 1, got ${reportConcurrency}`);
  }
  const reportInstanceRps = down(reportRps / reportConcurrency);
  if (reportRps > 0 && !(reportInstanceRps > 0)) {
    throw new RangeError(`reportRps ${reportRps} over ${reportConcurrency} report instances leaves less than 0.01 rps each`);
  }
  const collectRps = down((totalRps - signerRps - reportRps) / collectConcurrency);
  if (!(collectRps > 0)) {
    throw new RangeError(
      `chainRps ${totalRps} leaves nothing for collect after the signer's ${signerRps} rps and the reports' ${reportRps} rps over ${collectConcurrency} instances`,
    );
  }
  const pollsPerHour = Math.floor(((collectConcurrency * collectRps) / REQUESTS_PER_POLL) * 3600);
  const consumers: ChainConsumer[] = [
    { name: 'collect', instances: collectConcurrency, rpsPerInstance: collectRps },
    { name: 'sign-revocation', instances: signerConcurrency, rpsPerInstance: signerInstanceRps },
    ...(reportRps > 0 ? [{ name: 'daily-report', instances: reportConcurrency, rpsPerInstance: reportInstanceRps }] : []),
  ];
  return {
    totalRps,
    collectConcurrency,
    collectRps,
    signerRps,
    signerConcurrency,
    signerInstanceRps,
    reportRps,
    reportConcurrency,
    reportInstanceRps,
    pollsPerHour,
    consumers,
  };
}
