import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { breakerAt, capKey, countFiring, reserveCap, settleCap, type BreakerState, type CapState } from '../../../functions/domain/protectionCounts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2030, 0, 7, 9);
const account = (i: number) => `0x${String(i).padStart(40, '0')}` as `0x${string}`;
const firing = (i: number, at = T0) => ({ decisionId: `d${i}`, account: account(i), at });

/** Counts `firings` one after the other, each at its own `now`, from `state`. */
function countAll(firings: readonly { decisionId: string; account: `0x${string}`; at: number }[], nows: readonly number[], state: BreakerState | null = null) {
  const kinds: string[] = [];
  for (const [i, f] of firings.entries()) {
    const counted = countFiring(state, f, nows[i] ?? f.at, 5);
    state = counted.next;
    kinds.push(counted.count.kind);
  }
  return { kinds, state };
}

describe('the breaker (countFiring)', () => {
  it('counts five accounts, opens at the sixth (more than five), and stays open for the hour', () => {
    const { kinds, state } = countAll(
      [1, 2, 3, 4, 5, 6, 7].map((i) => firing(i)),
      [],
    );
    expect(kinds).toEqual(['counted', 'counted', 'counted', 'counted', 'counted', 'opened', 'open']);
    expect(state?.openedAt).toBe(T0);
    // The hour after the firings, it closes by itself.
    expect(breakerAt(state, T0 + HOUR - 1, 5).kind).toBe('open');
    expect(breakerAt(state, T0 + HOUR, 5)).toMatchObject({ kind: 'counted', openedAt: null });
  });

  it('counts a decision once: counting it again changes nothing and answers as the breaker stands', () => {
    let state: BreakerState | null = null;
    for (let i = 1; i <= 5; i++) state = countFiring(state, firing(i), T0, 5).next;
    const again = countFiring(state, firing(1), T0 + 1, 5);
    expect(again.count.kind).toBe('counted');
    expect(again.next.entries).toHaveLength(5);
    const opened = countFiring(again.next, firing(6), T0 + 2, 5);
    // A counted decision's later delegate finds the breaker open: refused.
    expect(countFiring(opened.next, firing(1), T0 + 3, 5).count.kind).toBe('open');
  });

  it('counts accounts, not decisions: one account firing twice is one account', () => {
    const { kinds } = countAll([1, 2, 3, 4, 5].map((i) => firing(i)).concat([{ decisionId: 'again', account: account(1), at: T0 }]), []);
    expect(kinds.at(-1)).toBe('counted');
  });

  it('opens exactly once, whatever order the signings happen in and whatever time each one reads (the market-wide crash)', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 6, max: 12 })
          .chain((n) =>
            fc.tuple(
              fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
              fc.array(fc.integer({ min: 0, max: 60_000 }), { minLength: n, maxLength: n }),
            ),
          ),
        ([order, skews]) => {
          // Each firing counted at its own clock (polls and signers that finished out of order, clocks a little apart).
          const firings = order.map((i) => firing(i + 1, T0 + (skews[i] ?? 0)));
          const { kinds } = countAll(
            firings,
            firings.map((f) => f.at),
          );
          expect(kinds.filter((k) => k === 'opened')).toHaveLength(1);
          expect(kinds.filter((k) => k === 'counted')).toHaveLength(5);
        },
      ),
    );
  });

  it('says when it closes if nobody else fires: when the accounts within the hour drop to the limit', () => {
    let state: BreakerState | null = null;
    for (let i = 1; i <= 7; i++) state = countFiring(state, firing(i, T0 + i * 60_000), T0 + i * 60_000, 5).next;
    // Seven accounts, at most five: the second one's firing must leave the hour.
    expect(breakerAt(state, T0 + 8 * 60_000, 5)).toMatchObject({ kind: 'open', accounts: 7, closesAt: T0 + 2 * 60_000 + HOUR });
  });
});

describe("an account's cap (reserveCap, settleCap)", () => {
  it('the kill switch: one firing per rolling day; a slot held is kept by the same decision, refused to another', () => {
    const first = reserveCap(null, 'kill-switch', { key: capKey('kill-switch', 'd1', account(9)), decisionId: 'd1' }, T0);
    expect(first.reservation).toEqual({ kind: 'reserved' });
    // The decision's next key takes the same slot.
    expect(capKey('kill-switch', 'd1', account(8))).toBe(capKey('kill-switch', 'd1', account(9)));
    expect(reserveCap(first.next, 'kill-switch', { key: 'd1', decisionId: 'd1' }, T0 + 1)).toEqual({ next: null, reservation: { kind: 'reserved' } });
    expect(reserveCap(first.next, 'kill-switch', { key: 'd2', decisionId: 'd2' }, T0 + 2).reservation).toEqual({
      kind: 'capped',
      used: 1,
      limit: 1,
      freesAt: T0 + DAY,
    });
    expect(reserveCap(first.next, 'kill-switch', { key: 'd2', decisionId: 'd2' }, T0 + DAY).reservation).toEqual({ kind: 'reserved' });
  });

  it('a signing that sent nothing gives its slot back; one that sent keeps it spent, and a later failure of the same decision does not give it back', () => {
    const held = reserveCap(null, 'kill-switch', { key: 'd1', decisionId: 'd1' }, T0).next as CapState;
    const released = settleCap(held, 'd1', false);
    expect(released).toEqual({ entries: [] });
    expect(reserveCap(released, 'kill-switch', { key: 'd2', decisionId: 'd2' }, T0 + 1).reservation).toEqual({ kind: 'reserved' });
    const spent = settleCap(held, 'd1', true) as CapState;
    expect(spent.entries[0]?.sent).toBe(true);
    expect(settleCap(spent, 'd1', false)).toBeNull();
    expect(reserveCap(spent, 'kill-switch', { key: 'd2', decisionId: 'd2' }, T0 + 1).reservation.kind).toBe('capped');
  });

  it('unknown keys: one slot per key, twenty per rolling day', () => {
    let state: CapState | null = null;
    for (let i = 0; i < 20; i++) {
      const reserved = reserveCap(state, 'unknown-delegate', { key: capKey('unknown-delegate', `d${i}`, account(i)), decisionId: `d${i}` }, T0 + i);
      expect(reserved.reservation.kind).toBe('reserved');
      state = reserved.next;
    }
    expect(reserveCap(state, 'unknown-delegate', { key: 'd20#x', decisionId: 'd20' }, T0 + 20).reservation).toMatchObject({
      kind: 'capped',
      used: 20,
      limit: 20,
    });
  });
});
