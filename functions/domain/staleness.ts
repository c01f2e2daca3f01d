import { INTERVAL_MS, type Interval } from './interval';
import type { AccountStatus } from './account';

export const DEFAULT_STALE_AFTER_INTERVALS = 3;
export const DEFAULT_FAIL_AFTER_ERRORS = 3;

export interface HealthInput {
  /** Timestamp of the newest stored point; `null` when none was ever collected. */
  latestPointAt: number | null;
  now: number;
  interval: Interval;
  consecutiveEmptyPolls: number;
  consecutiveErrors: number;
  /** The last error's message (already free of secrets), quoted in the reason. */
  lastError?: string | null;
  staleAfterIntervals?: number;
  failAfterErrors?: number;
}

export type AccountHealth = { status: 'ok'; reason: null } | { status: Exclude<AccountStatus, 'ok'>; reason: string };

function duration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const [d, h, m] = [Math.floor(minutes / 1440), Math.floor((minutes % 1440) / 60), minutes % 60];
  const parts = [d && `${d}d`, h && `${h}h`, m && `${m}m`].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : 'under a minute';
}

/** Whether the newest point is recent enough to act on: no older than `staleAfterIntervals` intervals. */
export function isDataFresh(latestPointAt: number | null, now: number, interval: Interval, staleAfterIntervals = DEFAULT_STALE_AFTER_INTERVALS): boolean {
  return latestPointAt !== null && now - latestPointAt <= staleAfterIntervals * INTERVAL_MS[interval];
}

/**
 * The collection health of an account, worst first:
 * - `failing` after `failAfterErrors` consecutive errors;
 * - `stale` when the newest point is older than `staleAfterIntervals` intervals, or when no point
 *   was ever collected after that many polls;
 * - `ok` otherwise (a new account without data yet is `ok` until then).
 */
export function accountHealth(input: HealthInput): AccountHealth {
  const staleAfter = input.staleAfterIntervals ?? DEFAULT_STALE_AFTER_INTERVALS;
  const failAfter = input.failAfterErrors ?? DEFAULT_FAIL_AFTER_ERRORS;
  if (input.consecutiveErrors >= failAfter) {
    const last = input.lastError ? `; last: ${input.lastError}` : '';
    return { status: 'failing', reason: `${input.consecutiveErrors} consecutive collection errors${last}` };
  }
  if (input.latestPointAt === null) {
    if (input.consecutiveEmptyPolls >= staleAfter) {
      return { status: 'stale', reason: `no data from the chain after ${input.consecutiveEmptyPolls} polls` };
    }
    return { status: 'ok', reason: null };
  }
  if (!isDataFresh(input.latestPointAt, input.now, input.interval, staleAfter)) {
    return {
      status: 'stale',
      reason: `newest point is ${duration(input.now - input.latestPointAt)} old (more than ${staleAfter} × ${input.interval})`,
    };
  }
  return { status: 'ok', reason: null };
}
