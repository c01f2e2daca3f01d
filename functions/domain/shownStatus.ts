import type { AccountStatus, TrackedAccount } from './account';
import { pollOverdue } from './pollOverdue';

/** What users are told an account's collection status is: the stored one, or `new` before its first poll. */
export type ShownStatus = AccountStatus | 'new';

export const SHOWN_STATUSES = ['ok', 'stale', 'failing', 'new'] as const satisfies readonly ShownStatus[];

/**
 * The status to show now: `stale` while a poll is overdue by more than an interval (see
 * `pollOverdue`; `lastPollAt` as there), else `new` for an account never polled, else the stored
 * status with its reason (`reason` passed through `clean`, which strips what must not be shown).
 */
export function shownStatus(
  account: Pick<TrackedAccount, 'address' | 'interval' | 'nextDueAt' | 'createdAt' | 'status' | 'statusReason' | 'polled'>,
  now: number,
  clean: (reason: string) => string,
  lastPollAt?: number | null,
): { status: ShownStatus; reason: string | null } {
  const overdue = account.status === 'ok' ? pollOverdue(account, now, lastPollAt) : null;
  if (overdue) return overdue;
  if (!account.polled && account.status === 'ok') return { status: 'new', reason: null };
  return { status: account.status, reason: account.statusReason === null ? null : clean(account.statusReason) };
}
