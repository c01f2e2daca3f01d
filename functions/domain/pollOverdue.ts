import { INTERVAL_MS, type Interval } from './interval';
import { lastSlotAt } from './schedule';

/**
 * Whether an account's polls are overdue by more than one interval, and why: its pending first
 * poll (or re-fetch) waited longer than that, or (when `lastPollAt`, the latest committed poll,
 * is known) no poll committed since the slot one interval before the latest. `null` when on time.
 * A quiet account (no new point, so no commit) also shows here after one interval.
 */
export function pollOverdue(
  account: { address: string; interval: Interval; nextDueAt: number | null; createdAt: number },
  now: number,
  lastPollAt?: number | null,
): { status: 'stale'; reason: string } | null {
  const step = INTERVAL_MS[account.interval];
  if (account.nextDueAt !== null) {
    const late = now - account.nextDueAt;
    return late > step ? { status: 'stale', reason: `poll overdue by ${minutes(late)} (waiting for its first poll or re-fetch)` } : null;
  }
  if (lastPollAt === undefined) return null;
  const expected = lastSlotAt(account.address, account.interval, now) - step;
  const since = lastPollAt ?? account.createdAt;
  if (since >= expected) return null;
  return { status: 'stale', reason: `poll overdue: none committed for ${minutes(now - since)} (interval ${account.interval})` };
}

function minutes(ms: number): string {
  const m = Math.floor(ms / 60_000);
  return m >= 120 ? `${Math.floor(m / 60)}h ${m % 60}m` : `${m} min`;
}
