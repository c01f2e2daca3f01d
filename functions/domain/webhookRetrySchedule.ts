const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * The waits before each retry of a webhook delivery that failed (5xx, timeout, no answer), after
 * the first attempt: Svix's schedule for Standard Webhooks (immediately, then 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h, 10 h), eight attempts over about 27.5 hours.
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

/** What follows a failed webhook attempt: another after `delayMs`, or none (the channel counts as broken). */
export type WebhookRetry = { kind: 'retry'; delayMs: number } | { kind: 'exhausted' };

/** What follows the `failures`-th failed attempt of one delivery (1 for the first). */
export function webhookRetryAfter(failures: number): WebhookRetry {
  const delayMs = WEBHOOK_RETRY_DELAYS_MS[failures - 1];
  return delayMs === undefined ? { kind: 'exhausted' } : { kind: 'retry', delayMs };
}

/** The broken reason of a webhook that failed every attempt: how long, how many, and the last answer. */
export function webhookExhaustedReason(failingForMs: number, attempts: number, lastReason: string): string {
  const span = failingForMs >= HOUR ? `${Math.floor(failingForMs / HOUR)} h` : `${Math.max(1, Math.floor(failingForMs / MINUTE))} min`;
  return `failing for ${span} over ${attempts} attempts; last: ${lastReason}`;
}
