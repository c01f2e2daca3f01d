import { setTimeout as sleepTimer } from 'node:timers/promises';

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
  /** Waits before retry number `retry` (1-based): full jitter over an exponentially growing cap. */
  wait(retry: number): Promise<void>;
}

/** Exponential backoff with full jitter: a random delay in [0, min(max, base * 2^retry)). */
export function backoff(options: BackoffOptions = {}): Backoff {
  const base = options.baseDelayMs ?? 25;
  const max = options.maxDelayMs ?? 2_000;
  const sleep = options.sleep ?? ((ms: number) => sleepTimer(ms).then(() => undefined));
  const random = options.random ?? Math.random;
  return {
    maxAttempts: options.maxAttempts ?? 8,
    wait: (retry) => sleep(Math.floor(random() * Math.min(max, base * 2 ** retry))),
  };
}
