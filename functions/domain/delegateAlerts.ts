const DAY_MS = 86_400_000;

/** Default days before expiry at which a warning goes out. */
export const DEFAULT_WARN_DAYS: readonly number[] = [14, 7, 3, 1];

/** A delegate as the chain lists it (the chain layer's `Delegate` fits). */
export interface ObservedDelegate {
  address: string;
  expiryMs: number | null;
  name: string | null;
  isWebClient: boolean;
}

/** What is remembered about a delegate between checks. Stored per (account, delegate). */
export interface SeenDelegate {
  expiryMs: number | null;
  name: string | null;
  isWebClient: boolean;
  /** When the current appearance was first seen. */
  firstSeenAt: number;
  /** Warn-day steps already covered for the current expiry (sent, or passed over by a later one). */
  warningsSent: number[];
  expiredNoticeSent: boolean;
  /** Set when the delegate disappeared; the entry is kept so a re-added delegate is new again. */
  removedAt: number | null;
  /** How many times the address has appeared (1 on the first); part of event ids. */
  generation: number;
}

interface EventBase {
  /** Deterministic: the same account, delegate, appearance, kind and step always give the same id. */
  id: string;
  account: string;
}

export type DelegateEvent =
  | (EventBase & { kind: 'new-delegate'; delegate: ObservedDelegate; firstSeenAt: number })
  | (EventBase & { kind: 'expiry-warning'; delegate: ObservedDelegate; expiryMs: number; stepDays: number; remainingMs: number })
  | (EventBase & { kind: 'expired'; delegate: ObservedDelegate; expiryMs: number })
  | (EventBase & { kind: 'removed'; address: string; name: string | null; removedAt: number });

export interface DelegateCheckInput {
  account: string;
  /** Stored view keyed by delegate address (tombstones included). */
  previous: ReadonlyMap<string, SeenDelegate>;
  current: readonly ObservedDelegate[];
  /** Days before expiry to warn at; default `DEFAULT_WARN_DAYS`. */
  warnDays?: readonly number[];
  now: number;
  /** The account's first check: the delegates found are its baseline, not news. */
  firstObservation: boolean;
}

export interface DelegateCheckResult {
  events: DelegateEvent[];
  /** The view to store, keyed by address. */
  next: Map<string, SeenDelegate>;
}

function carryOver(prev: SeenDelegate | undefined, d: ObservedDelegate, now: number): { seen: SeenDelegate; isNew: boolean } {
  const reset = { warningsSent: [], expiredNoticeSent: false };
  const current = { expiryMs: d.expiryMs, name: d.name, isWebClient: d.isWebClient };
  if (!prev || prev.removedAt !== null) {
    const generation = prev ? prev.generation + 1 : 1;
    return { isNew: true, seen: { ...current, ...reset, firstSeenAt: now, removedAt: null, generation } };
  }
  return { isNew: false, seen: { ...prev, ...current, ...(prev.expiryMs === d.expiryMs ? {} : reset) } };
}

/**
 * Compares the delegates the chain lists now with the stored view and decides what to tell the
 * owner. Rules:
 * - `new-delegate` for an address not listed at the previous check (or listed again after being
 *   removed); never on the account's first observation.
 * - `expiry-warning`: when the time left first falls under one or more warn-day steps, one warning
 *   for the smallest step reached; the larger steps count as covered. Found with 2 days left out
 *   of [14, 7, 3, 1], only the 3-day warning goes out, then the 1-day one later. A new delegate
 *   gets no separate warning (the new-delegate notice shows its expiry). A changed expiry
 *   (re-authorised key) starts the steps over.
 * - `expired` once, for a delegate that was listed unexpired before; one first seen already
 *   expired is only shown in reports.
 * - `removed` once, when a listed delegate disappears (informational, for the next report).
 * Events for listed delegates come first, then removals, each sorted by address.
 */
export function checkDelegates(input: DelegateCheckInput): DelegateCheckResult {
  const { account, now } = input;
  const steps = [...new Set(input.warnDays ?? DEFAULT_WARN_DAYS)].filter((s) => s > 0).sort((a, b) => b - a);
  const events: DelegateEvent[] = [];
  const next = new Map<string, SeenDelegate>();
  const listed = [...new Map(input.current.map((d) => [d.address, d])).values()];

  for (const d of listed.sort((a, b) => (a.address < b.address ? -1 : 1))) {
    const { seen, isNew } = carryOver(input.previous.get(d.address), d, now);
    const idBase = `delegate:${account}:${d.address}:${seen.generation}`;
    if (isNew && !input.firstObservation) events.push({ kind: 'new-delegate', id: `${idBase}:new`, account, delegate: d, firstSeenAt: now });
    if (d.expiryMs !== null) {
      const remainingMs = d.expiryMs - now;
      if (remainingMs <= 0) {
        if (!seen.expiredNoticeSent && !isNew)
          events.push({ kind: 'expired', id: `${idBase}:expired:${d.expiryMs}`, account, delegate: d, expiryMs: d.expiryMs });
        seen.expiredNoticeSent = true;
      } else {
        const reached = steps.filter((s) => remainingMs <= s * DAY_MS);
        const smallest = reached[reached.length - 1];
        const announce = smallest !== undefined && !seen.warningsSent.includes(smallest) && !(isNew && !input.firstObservation);
        if (announce) {
          events.push({
            kind: 'expiry-warning',
            id: `${idBase}:expiry:${d.expiryMs}:${smallest}d`,
            account,
            delegate: d,
            expiryMs: d.expiryMs,
            stepDays: smallest,
            remainingMs,
          });
        }
        seen.warningsSent = [...new Set([...seen.warningsSent, ...reached])].sort((a, b) => b - a);
      }
    }
    next.set(d.address, seen);
  }

  for (const [address, prev] of [...input.previous].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (next.has(address)) continue;
    if (prev.removedAt === null) {
      events.push({ kind: 'removed', id: `delegate:${account}:${address}:${prev.generation}:removed`, account, address, name: prev.name, removedAt: now });
      next.set(address, { ...prev, removedAt: now });
    } else {
      next.set(address, prev);
    }
  }
  return { events, next };
}
