import * as z from 'zod';
import { addressSchema, type Address } from './address';
import { BREAKER_WINDOW_MS, CAP_WINDOW_MS, PROTECTION_CAPS } from './protectiveDecision';
import type { ProtectiveRule } from './protectiveAction';

const ms = z.number().int().min(0);

/** One firing the breaker counted: a decision of an account, when the signer first signed for it. */
export const breakerEntrySchema = z.object({ decisionId: z.string().min(1).max(128), account: addressSchema, at: ms });
export type BreakerEntry = z.infer<typeof breakerEntrySchema>;

/** The breaker of one rule: the firings of the rolling hour, and since when it is open (`null`: closed). */
export const breakerStateSchema = z.object({ entries: z.array(breakerEntrySchema).max(10_000), openedAt: ms.nullable() });
export type BreakerState = z.infer<typeof breakerStateSchema>;

/** One slot of an account's cap: a firing (kill switch) or a key (unknown keys), and whether a transaction of it was sent. */
export const capEntrySchema = z.object({ key: z.string().min(1).max(300), decisionId: z.string().min(1).max(128), at: ms, sent: z.boolean() });
export type CapEntry = z.infer<typeof capEntrySchema>;

/** An account's cap of one rule: the slots of the rolling day. */
export const capStateSchema = z.object({ entries: z.array(capEntrySchema).max(1_000) });
export type CapState = z.infer<typeof capStateSchema>;

/**
 * What counting a firing did: `counted` (the breaker stays closed: sign), `opened` (this firing
 * took it past the limit: refuse, and it is open from now), `open` (it was open already: refuse).
 * `accounts` is how many accounts fired within the hour; `closesAt` when the breaker closes if
 * no other account fires (`null` while closed).
 */
export type BreakerCount = {
  readonly kind: 'counted' | 'opened' | 'open';
  readonly accounts: number;
  readonly openedAt: number | null;
  readonly closesAt: number | null;
};

const live = <T extends { at: number }>(entries: readonly T[], now: number, windowMs: number): T[] => entries.filter((e) => e.at > now - windowMs);

function distinctAccounts(entries: readonly BreakerEntry[]): number {
  return new Set(entries.map((e) => e.account.toLowerCase())).size;
}

/** When the breaker closes if nobody else fires: the time the accounts within the hour drop to `maxAccounts`. */
function closingTime(entries: readonly BreakerEntry[], maxAccounts: number): number | null {
  const latest = new Map<string, number>();
  for (const e of entries) latest.set(e.account.toLowerCase(), Math.max(latest.get(e.account.toLowerCase()) ?? 0, e.at));
  const times = [...latest.values()].sort((a, b) => a - b);
  const leaving = times.length - maxAccounts;
  return leaving <= 0 ? null : (times[leaving - 1] as number) + BREAKER_WINDOW_MS;
}

/**
 * Counts a firing of `entry.account` (decision `entry.decisionId`) against the breaker of a rule
 * at `now` (the signer's clock): more than `maxAccounts` distinct accounts within the rolling hour
 * open it. Every firing is kept, refused ones included, so a crash holds it open for the hour.
 * Counting the same decision again counts nothing and answers from the breaker as it stands
 * (`counted` while closed). Entries are never dropped for being later than `now`: another
 * signer's clock may run a little ahead, and the order polls finish in must not matter.
 */
export function countFiring(state: BreakerState | null, entry: BreakerEntry, now: number, maxAccounts: number): { next: BreakerState; count: BreakerCount } {
  const before = live(state?.entries ?? [], now, BREAKER_WINDOW_MS);
  const wasOpen = distinctAccounts(before) > maxAccounts;
  const counted = before.some((e) => e.decisionId === entry.decisionId);
  const entries = counted ? before : [...before, entry];
  const accounts = distinctAccounts(entries);
  const open = accounts > maxAccounts;
  const openedAt = open ? (wasOpen ? (state?.openedAt ?? now) : now) : null;
  const kind = !open ? 'counted' : wasOpen || counted ? 'open' : 'opened';
  return { next: { entries, openedAt }, count: { kind, accounts, openedAt, closesAt: open ? closingTime(entries, maxAccounts) : null } };
}

/** The breaker as it stands at `now`, for `status` and the notices. */
export function breakerAt(state: BreakerState | null, now: number, maxAccounts: number): BreakerCount {
  const entries = live(state?.entries ?? [], now, BREAKER_WINDOW_MS);
  const accounts = distinctAccounts(entries);
  const open = accounts > maxAccounts;
  return {
    kind: open ? 'open' : 'counted',
    accounts,
    openedAt: open ? (state?.openedAt ?? null) : null,
    closesAt: open ? closingTime(entries, maxAccounts) : null,
  };
}

/** The slot a decision's delegate takes in its account's cap: one per firing for the kill switch, one per key for unknown keys. */
export function capKey(rule: ProtectiveRule, decisionId: string, delegate: Address): string {
  return rule === 'kill-switch' ? decisionId : `${decisionId}#${delegate.toLowerCase()}`;
}

/** What reserving a cap slot did: `reserved` (or held already), or `capped` with how many are used and when one frees. */
export type CapReservation =
  { readonly kind: 'reserved' } | { readonly kind: 'capped'; readonly used: number; readonly limit: number; readonly freesAt: number };

/**
 * Reserves the slot `key` in an account's cap of `rule` (`PROTECTION_CAPS` per rolling day) at
 * `now`; a slot already held is kept (a redelivery, or the decision's next key). `next` is `null`
 * when nothing changes.
 */
export function reserveCap(
  state: CapState | null,
  rule: ProtectiveRule,
  slot: { key: string; decisionId: string },
  now: number,
): { next: CapState | null; reservation: CapReservation } {
  const entries = live(state?.entries ?? [], now, CAP_WINDOW_MS);
  if (entries.some((e) => e.key === slot.key)) return { next: null, reservation: { kind: 'reserved' } };
  const limit = PROTECTION_CAPS[rule];
  if (entries.length + 1 > limit) {
    const oldest = Math.min(...entries.map((e) => e.at));
    return { next: null, reservation: { kind: 'capped', used: entries.length, limit, freesAt: oldest + CAP_WINDOW_MS } };
  }
  return { next: { entries: [...entries, { ...slot, at: now, sent: false }] }, reservation: { kind: 'reserved' } };
}

/**
 * Settles a reserved slot once its signing ended: kept and marked sent when a transaction went
 * out (the cap is spent), given back when nothing was sent and nothing of it had been (a refusal
 * or a failure spends no cap). `null` when nothing changes.
 */
export function settleCap(state: CapState | null, key: string, sent: boolean): CapState | null {
  const entries = state?.entries ?? [];
  const slot = entries.find((e) => e.key === key);
  if (!slot || slot.sent) return null;
  if (sent) return { entries: entries.map((e) => (e.key === key ? { ...e, sent: true } : e)) };
  return { entries: entries.filter((e) => e.key !== key) };
}
