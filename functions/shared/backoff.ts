import { setTimeout as sleepTimer } from 'node:timers/promises';

/** The ceiling of a full-jitter delay, and its source of randomness. */
export interface JitterOptions {
  /** Ceiling of the first retry's delay. */
  readonly baseDelayMs: number;
  /** Ceiling of any computed delay. */
  readonly maxDelayMs: number;
  /** Uniform random number in [0, 1). */
  readonly random: () => number;
}

/**
 * Exponential backoff with full jitter: a uniform delay in `[0, min(maxDelayMs, baseDelayMs * 2^retry))`,
 * `retry` counting from 0 for the first retry.
 */
export function fullJitterDelay(retry: number, options: JitterOptions): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
  return Math.floor(options.random() * ceiling);
}

/** Retry policy for throttled batch items. */
export interface BackoffOptions {
  /** Attempts in total, the first included; default 8. */
  readonly maxAttempts?: number;
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Injected for tests. */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

/** Resolved policy with defaults applied. */
export interface Backoff {
  readonly maxAttempts: number;
  /** Waits `fullJitterDelay(retry)` before retry number `retry` (callers pass 1 for the first). */
  wait(retry: number): Promise<void>;
}

/** A retry policy waiting `fullJitterDelay` between attempts (defaults: 8 attempts, 25 ms base, 2 s cap). */
export function backoff(options: BackoffOptions = {}): Backoff {
  const jitter: JitterOptions = {
    baseDelayMs: options.baseDelayMs ?? 25,
    maxDelayMs: options.maxDelayMs ?? 2_000,
    random: options.random ?? Math.random,
  };
  const sleep = options.sleep ?? ((ms: number) => sleepTimer(ms).then(() => undefined));
  return {
    maxAttempts: options.maxAttempts ?? 8,
    wait: (retry) => sleep(fullJitterDelay(retry, jitter)),
  };
}

/**
 * Runs `attempt` until it succeeds, waiting `policy.wait` between tries. An error `retryable`
 * rejects is thrown at once, the last one after `policy.maxAttempts` tries; `onRetry` sees each
 * error that is retried.
 */
export async function retryWithBackoff<T>(
  policy: Backoff,
  attempt: () => Promise<T>,
  retryable: (error: unknown) => boolean,
  onRetry?: (error: unknown) => void,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!retryable(error) || n >= policy.maxAttempts) throw error;
      onRetry?.(error);
      await policy.wait(n);
    }
  }
}
