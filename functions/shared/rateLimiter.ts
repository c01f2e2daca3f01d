import { setTimeout as delay } from 'node:timers/promises';

/** Waits `ms` milliseconds; rejects with the signal's reason when it is aborted. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Default `Sleep` on real timers. */
export const realSleep: Sleep = async (ms, signal) => {
  await delay(ms, undefined, signal ? { signal } : {});
};

/** Something that admits one request at a time at a bounded rate. */
export interface RateLimiter {
  /** Resolves when the caller may send one request. */
  take(signal?: AbortSignal): Promise<void>;
}

export interface TokenBucketOptions {
  /** Sustained requests per second (> 0). */
  ratePerSecond: number;
  /** Requests that may go at once after a quiet period; defaults to `ceil(ratePerSecond)`, at least 1. */
  burst?: number;
  /** Tokens at the start; defaults to `burst` (full). */
  initialTokens?: number;
  /** Monotonic clock in ms; defaults to `performance.now`. */
  now?: () => number;
  sleep?: Sleep;
}

/**
 * Token bucket: `burst` tokens, refilled at `ratePerSecond`. Each `take()` reserves a token at once
 * (the balance may go negative) and sleeps until its reservation is covered, so concurrent callers are
 * served in call order without polling. An aborted wait gives its token back.
 */
export class TokenBucket implements RateLimiter {
  readonly ratePerSecond: number;
  readonly burst: number;
  readonly #now: () => number;
  readonly #sleep: Sleep;
  #tokens: number;
  #last: number;

  constructor(options: TokenBucketOptions) {
    if (!(options.ratePerSecond > 0) || !Number.isFinite(options.ratePerSecond)) {
      throw new RangeError(`ratePerSecond must be a positive number, got ${options.ratePerSecond}`);
    }
    const burst = options.burst ?? Math.max(1, Math.ceil(options.ratePerSecond));
    if (!(burst >= 1) || !Number.isFinite(burst)) throw new RangeError(`burst must be at least 1, got ${burst}`);
    this.ratePerSecond = options.ratePerSecond;
    this.burst = burst;
    this.#now = options.now ?? (() => performance.now());
    this.#sleep = options.sleep ?? realSleep;
    this.#tokens = Math.min(burst, options.initialTokens ?? burst);
    this.#last = this.#now();
  }

  /** Milliseconds a `take()` issued now would wait. */
  waitTimeMs(): number {
    this.#refill();
    return this.#tokens >= 1 ? 0 : ((1 - this.#tokens) / this.ratePerSecond) * 1000;
  }

  async take(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const wait = this.waitTimeMs();
    this.#tokens -= 1;
    if (wait <= 0) return;
    try {
      await this.#sleep(wait, signal);
    } catch (err) {
      this.#tokens += 1;
      throw err;
    }
  }

  #refill(): void {
    const now = this.#now();
    const elapsed = Math.max(0, now - this.#last);
    this.#last = now;
    this.#tokens = Math.min(this.burst, this.#tokens + (elapsed / 1000) * this.ratePerSecond);
  }
}

const shared = new Map<number, TokenBucket>();

/**
 * The burst of one instance's chain bucket at `ratePerSecond`: its whole-second allowance
 * (`floor`, at least 1). Over every instance of a deployment the bursts then add up to no more
 * than the rates do (`infra/config/chainRateBudget.ts`), so instances bursting together stay
 * within the chain's allowance (a rounded-up burst of 9 at 8.5 rps, twice, provoked 429s).
 */
export function chainBurst(ratePerSecond: number): number {
  return Math.max(1, Math.floor(ratePerSecond));
}

/**
 * The process-wide bucket for a given rate: every client created with the same `CHAIN_RPS` in this
 * process (one Lambda container, one CLI run) shares one budget of requests to the chain. It
 * starts empty, not full: a fresh instance starting while the others are at full rate adds no
 * burst of its own on top of theirs.
 */
export function sharedRateLimiter(ratePerSecond: number): TokenBucket {
  let bucket = shared.get(ratePerSecond);
  if (!bucket) {
    bucket = new TokenBucket({ ratePerSecond, burst: chainBurst(ratePerSecond), initialTokens: 0 });
    shared.set(ratePerSecond, bucket);
  }
  return bucket;
}
