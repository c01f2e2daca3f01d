/** Delays for retrying a failed request. */
export interface BackoffOptions {
  /** Ceiling of the first retry's delay. */
  baseDelayMs: number;
  /** Ceiling of any computed delay. */
  maxDelayMs: number;
  /** Uniform random number in [0, 1). */
  random: () => number;
}

/**
 * Exponential backoff with full jitter: a uniform delay in `[0, min(maxDelayMs, baseDelayMs * 2^retry))`,
 * `retry` counting from 0 for the first retry.
 */
export function fullJitterDelay(retry: number, options: BackoffOptions): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
  return Math.floor(options.random() * ceiling);
}

/**
 * Milliseconds to wait according to a `Retry-After` header: delta-seconds (`"3"`) or an HTTP date,
 * at most `capMs`. `undefined` when the header is absent or unreadable; a date in the past gives 0.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number, capMs: number): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Math.min(capMs, Number(value) * 1000);
  if (!/[a-z]/i.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.min(capMs, Math.max(0, at - nowMs));
}
