import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Address } from '../../../functions/domain/address';
import { decideDelegateCheck, type DelegateCheckLoad } from '../../../functions/domain/decideDelegateCheck';
import type { ObservedDelegate, SeenDelegate } from '../../../functions/domain/delegateAlerts';
import { delegateDigest, parseDelegateMark } from '../../../functions/domain/delegateMark';
import { refusedUnit, type DecisionUnit } from '../../../functions/domain/decisionUnit';
import type { KnownDelegateState } from '../../../functions/domain/judgeNewDelegates';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = 1_900_000_000_000;
const ACCOUNT = '0x00000000000000000000000000000000000000aa';
const addr = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}`;
const key = (n: number, over: Partial<ObservedDelegate> = {}): ObservedDelegate => ({
  address: addr(n),
  expiryMs: null,
  name: `k${n}`,
  isWebClient: false,
  ...over,
});
const seen = (over: Partial<SeenDelegate> = {}): SeenDelegate => ({
  expiryMs: null,
  name: null,
  isWebClient: false,
  firstSeenAt: T0 - DAY,
  warningsSent: [],
  expiredNoticeSent: false,
  removedAt: null,
  generation: 1,
  ...over,
});
const protectionState = (over: Partial<KnownDelegateState> = {}): KnownDelegateState => ({
  baselineAt: T0 - DAY,
  known: new Set([addr(1).toLowerCase()]),
  announcements: [],
  unknownSeen: [],
  ...over,
});
/** A check at `T0` of an account whose only stored view is key 1 (known), listing `current`. */
const load = (over: Partial<DelegateCheckLoad> = {}): DelegateCheckLoad => ({
  account: { address: ACCOUNT, expiryWarnDays: [14, 7, 3, 1], revokeUnknown: 'api-keys' },
  current: [key(1)],
  previous: new Map([[addr(1), seen({ name: 'k1' })]]),
  protection: { state: protectionState(), units: new Map() },
  now: T0,
  firstObservation: false,
  sightedAt: T0 - 1_000,
  ...over,
});
const recheckOf = (mark: string) => parseDelegateMark(mark)?.recheckAt;

describe('decideDelegateCheck', () => {
  it('judges a new unknown API key: revoked, its notice waiting for what was done, the sighting and a look again if queued', () => {
    const decision = decideDelegateCheck(load({ current: [key(1), key(2)] }));
    expect(decision.unknownKeys).toEqual([
      {
        delegate: key(2),
        mode: 'api-keys',
        revoke: true,
        webSession: false,
        firstSeenAt: T0,
        again: false,
        seenAt: undefined,
        repeatWithinDay: false,
        withinDay: 1,
      },
    ]);
    expect(decision.notices.map((n) => [n.event.kind, n.event.id, n.guard?.verdict])).toEqual([
      ['new-delegate', `delegate:${ACCOUNT}:${addr(2)}:1:new`, 'unknown'],
    ]);
    expect(decision.notices[0]?.guard).toEqual({ verdict: 'unknown', key: decision.unknownKeys[0] });
    expect(decision.knownKeys).toEqual({ known: [], source: 'announced', baselineAt: undefined });
    expect([...decision.changedViews.keys()]).toEqual([addr(2)]);
    expect(recheckOf(decision.mark)).toBeNull();
    expect(recheckOf(decision.markIfQueued)).toBe(T0);
  });

  it('keeps a web session under api-keys (raised, not revoked), and an announced key, which becomes known', () => {
    const announcements = [{ delegate: addr(3), announcedAt: T0 - HOUR, expiresAt: T0 + HOUR }];
    const decision = decideDelegateCheck(
      load({ current: [key(1), key(2, { isWebClient: true }), key(3)], protection: { state: protectionState({ announcements }), units: new Map() } }),
    );
    expect(decision.unknownKeys.map((k) => [k.delegate.address, k.revoke, k.webSession])).toEqual([[addr(2), false, true]]);
    expect(decision.notices.map((n) => n.guard?.verdict)).toEqual(['unknown', 'announced']);
    expect(decision.knownKeys?.known).toEqual([addr(3)]);
  });

  it('with the mode off reads and judges nothing: plain notices, no protection write', () => {
    const decision = decideDelegateCheck(
      load({ account: { address: ACCOUNT, expiryWarnDays: [], revokeUnknown: 'off' }, protection: null, current: [key(1), key(2)] }),
    );
    expect(decision.notices.map((n) => [n.event.kind, n.guard])).toEqual([['new-delegate', null]]);
    expect(decision.unknownKeys).toEqual([]);
    expect(decision.knownKeys).toBeNull();
  });

  it('judges an unknown key again once its refused decision may be retried, with a notice of its own dated by the check', () => {
    const unknownSeen = [{ delegate: addr(2), at: T0 - 2 * HOUR, decisionId: 'd1' }];
    const refused: DecisionUnit = { state: 'done', at: T0 - HOUR, result: refusedUnit({ code: 'aged', text: 'too old' }, T0 - 1) };
    const previous = new Map([
      [addr(1), seen({ name: 'k1' })],
      [addr(2), seen({ name: 'k2', firstSeenAt: T0 - 2 * HOUR })],
    ]);
    const decision = decideDelegateCheck(
      load({
        current: [key(1), key(2)],
        previous,
        protection: { state: protectionState({ unknownSeen }), units: new Map([[addr(2).toLowerCase(), refused]]) },
      }),
    );
    expect(decision.unknownKeys).toEqual([
      {
        delegate: key(2),
        mode: 'api-keys',
        revoke: true,
        webSession: false,
        firstSeenAt: T0 - 2 * HOUR,
        again: true,
        seenAt: T0 - 2 * HOUR,
        repeatWithinDay: false,
        withinDay: 0,
      },
    ]);
    expect(decision.notices.map((n) => [n.event.id, n.event.kind === 'new-delegate' ? n.event.firstSeenAt : null])).toEqual([
      [`delegate:${ACCOUNT}:${addr(2)}:1:judged-again:${T0 - 1_000}`, T0 - 2 * HOUR],
    ]);
    // A key judged again is not watched until it settles: the mark does not ask for it.
    expect(recheckOf(decision.mark)).toBeNull();
  });

  it('looks again now while a pending decision is unsettled, and nothing is judged again yet', () => {
    const unknownSeen = [{ delegate: addr(2), at: T0 - 2 * HOUR, decisionId: 'd1' }];
    const previous = new Map([
      [addr(1), seen({ name: 'k1' })],
      [addr(2), seen({ name: 'k2' })],
    ]);
    const decision = decideDelegateCheck(
      load({ current: [key(1), key(2)], previous, protection: { state: protectionState({ unknownSeen }), units: new Map() } }),
    );
    expect(decision.unknownKeys).toEqual([]);
    expect(decision.knownKeys).toBeNull();
    expect(recheckOf(decision.mark)).toBe(T0);
  });

  it('on the first observation takes the listed delegates as the baseline: no notice, every view written', () => {
    const decision = decideDelegateCheck(
      load({
        current: [key(1), key(2)],
        previous: new Map(),
        firstObservation: true,
        protection: { state: protectionState({ baselineAt: null, known: new Set() }), units: new Map() },
      }),
    );
    expect(decision.notices).toEqual([]);
    expect(decision.knownKeys).toEqual({ known: [addr(1), addr(2)], source: 'baseline', baselineAt: T0 });
    expect([...decision.changedViews.keys()].sort()).toEqual([addr(1), addr(2)]);
  });
});

describe('decideDelegateCheck properties', () => {
  const listing = fc.uniqueArray(
    fc.record({
      n: fc.integer({ min: 1, max: 12 }),
      expiryInDays: fc.option(fc.integer({ min: -3, max: 30 }), { nil: null }),
      isWebClient: fc.boolean(),
    }),
    { selector: (d) => d.n, maxLength: 8 },
  );
  const observed = (list: readonly { n: number; expiryInDays: number | null; isWebClient: boolean }[]) =>
    list.map((d) => key(d.n, { expiryMs: d.expiryInDays === null ? null : T0 + d.expiryInDays * DAY + HOUR, isWebClient: d.isWebClient }));
  const mode = fc.constantFrom('off', 'api-keys', 'all' as const);

  it('a check repeated on what the previous one stored, with the same list at the same time, tells and writes nothing more', () => {
    fc.assert(
      // Half the time the same list later (the expiry steps fall due on it), half another one.
      fc.property(listing, fc.option(listing, { nil: null }), mode, fc.integer({ min: 0, max: 20 * DAY }), (before, changed, revokeUnknown, later) => {
        const after = changed ?? before;
        const first = decideDelegateCheck(
          load({
            account: { address: ACCOUNT, expiryWarnDays: [14, 7, 3, 1], revokeUnknown },
            current: observed(before),
            previous: new Map(),
            firstObservation: true,
            protection: revokeUnknown === 'off' ? null : { state: protectionState({ known: new Set() }), units: new Map() },
          }),
        );
        const stored = new Map(first.changedViews);
        const second = decideDelegateCheck(
          load({
            account: { address: ACCOUNT, expiryWarnDays: [14, 7, 3, 1], revokeUnknown: 'off' },
            current: observed(after),
            previous: stored,
            protection: null,
            now: T0 + later,
          }),
        );
        const again = decideDelegateCheck(
          load({
            account: { address: ACCOUNT, expiryWarnDays: [14, 7, 3, 1], revokeUnknown: 'off' },
            current: observed(after),
            previous: new Map([...stored, ...second.changedViews]),
            protection: null,
            now: T0 + later,
          }),
        );
        expect(again.notices).toEqual([]);
        expect(again.changedViews.size).toBe(0);
        expect(again.mark).toBe(second.mark);
      }),
    );
  });

  it('every unknown key gets exactly one notice that carries it; web sessions are revoked only under all; the mark names the listed delegates', () => {
    fc.assert(
      fc.property(listing, fc.constantFrom('api-keys', 'all' as const), (list, revokeUnknown) => {
        const current = observed(list);
        const decision = decideDelegateCheck(
          load({
            account: { address: ACCOUNT, expiryWarnDays: [7, 1], revokeUnknown },
            current,
            previous: new Map(),
            protection: { state: protectionState({ known: new Set() }), units: new Map() },
          }),
        );
        // Nothing stored, nothing known: every listed delegate is new and unknown.
        expect(decision.unknownKeys.map((k) => k.delegate.address).sort()).toEqual(current.map((d) => d.address).sort());
        for (const k of decision.unknownKeys) {
          expect(decision.notices.filter((n) => n.guard?.verdict === 'unknown' && n.guard.key === k)).toHaveLength(1);
          expect(k.revoke).toBe(!k.webSession || revokeUnknown === 'all');
        }
        expect(parseDelegateMark(decision.mark)?.digest).toBe(delegateDigest(current));
        const [plain, queued] = [recheckOf(decision.mark), recheckOf(decision.markIfQueued)];
        expect(queued).toBe(plain === null || plain === undefined ? T0 : Math.min(plain, T0));
      }),
    );
  });
});
