import type { TrackedAccount } from './account';
import type { PollFailure } from './pollFailure';

/**
 * How the account's latest poll went, apart from its status (which waits for a threshold):
 * `none` before its first poll, `failed` from the first failed poll on (with the reason, when, and
 * how many in a row), `ok` otherwise.
 */
export type LastPoll =
  | { readonly outcome: 'none' }
  | { readonly outcome: 'ok' }
  | { readonly outcome: 'failed'; readonly at: number; readonly reason: string; readonly since: number; readonly consecutive: number };

/** The last poll's outcome from the account's stored bookkeeping (no extra read). */
export function lastPollOf(account: Pick<TrackedAccount, 'polled' | 'consecutiveErrors' | 'lastFailure'>): LastPoll {
  if (account.consecutiveErrors > 0 && account.lastFailure !== null) {
    return { outcome: 'failed', ...account.lastFailure, consecutive: account.consecutiveErrors };
  }
  return account.polled ? { outcome: 'ok' } : { outcome: 'none' };
}

/** The failure to store after a failed poll: `since` carried over while the run of failures goes on. */
export function nextPollFailure(previous: Pick<TrackedAccount, 'consecutiveErrors' | 'lastFailure'>, at: number, reason: string): PollFailure {
  const since = previous.consecutiveErrors > 0 && previous.lastFailure !== null ? previous.lastFailure.since : at;
  return { at, reason, since };
}
