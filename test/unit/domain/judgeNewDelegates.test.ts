import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDelegates, type ObservedDelegate, type SeenDelegate } from '../../../functions/domain/delegateAlerts';
import { isAnnounced } from '../../../functions/domain/delegateAnnouncement';
import { judgeNewDelegates, type KnownDelegateState } from '../../../functions/domain/judgeNewDelegates';
import { delegateStanding } from '../../../functions/domain/delegateStanding';
import type { Address } from '../../../functions/domain/address';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = 1_900_000_000_000;
const addr = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}`;
const key = (n: number, isWebClient = false): ObservedDelegate => ({ address: addr(n), expiryMs: null, name: `k${n}`, isWebClient });
const state = (over: Partial<KnownDelegateState> = {}): KnownDelegateState => ({
  baselineAt: T0,
  known: new Set(),
  announcements: [],
  unknownSeen: [],
  ...over,
});
const judge = (over: Partial<Parameters<typeof judgeNewDelegates>[0]> = {}) =>
  judgeNewDelegates({ mode: 'api-keys', state: state(), current: [], fresh: [], listedBefore: [], now: T0 + HOUR, ...over });

describe('isAnnounced', () => {
  it('is open from the announcement until, not including, its expiry', () => {
    const a = { announcedAt: T0, expiresAt: T0 + HOUR };
    expect([T0 - 1, T0, T0 + HOUR - 1, T0 + HOUR].map((t) => isAnnounced(a, t))).toEqual([false, true, true, false]);
  });
});

describe('judgeNewDelegates', () => {
  it('judges nothing when the mode is off', () => {
    const r = judge({ mode: 'off', current: [key(9)], fresh: [key(9)] });
    expect(r.verdicts.size).toBe(0);
    expect(r.unknown).toEqual([]);
  });

  it('revokes an unknown API key under api-keys and all; an unknown web session only under all', () => {
    for (const mode of ['api-keys', 'all'] as const) {
      const r = judge({ mode, current: [key(1), key(2, true)], fresh: [key(1), key(2, true)] });
      expect(r.verdicts.get(addr(1))).toEqual({ kind: 'unknown', revoke: true, webSession: false });
      expect(r.verdicts.get(addr(2))).toEqual({ kind: 'unknown', revoke: mode === 'all', webSession: true });
      expect(r.unknown).toEqual([addr(1), addr(2)]);
    }
  });

  it('keeps a known key (any case) and an announced one, and learns the announced one', () => {
    const announcements = [{ delegate: addr(3), announcedAt: T0, expiresAt: T0 + 2 * HOUR }];
    const r = judge({ state: state({ known: new Set([addr(1).toLowerCase()]), announcements }), current: [key(1), key(3)], fresh: [key(1), key(3)] });
    expect(r.verdicts.get(addr(1))).toEqual({ kind: 'known' });
    expect(r.verdicts.get(addr(3))).toEqual({ kind: 'announced', expiresAt: T0 + 2 * HOUR });
    expect(r.learn).toEqual([addr(3)]);
    expect(r.unknown).toEqual([]);
  });

  it('an expired announcement does not keep the key', () => {
    const announcements = [{ delegate: addr(3), announcedAt: T0 - 2 * HOUR, expiresAt: T0 }];
    const r = judge({ state: state({ announcements }), current: [key(3)], fresh: [key(3)] });
    expect(r.verdicts.get(addr(3))?.kind).toBe('unknown');
  });

  it('never takes the baseline from an empty read', () => {
    const r = judge({ state: state({ baselineAt: null }), current: [], fresh: [], listedBefore: [] });
    expect(r.tookBaseline).toBe(false);
    expect(r.learn).toEqual([]);
  });

  it('takes the baseline from this read and every key listed before when it is still to take, and calls nothing unknown', () => {
    const r = judge({ state: state({ baselineAt: null }), current: [key(1)], fresh: [key(1)], listedBefore: [addr(2)] });
    expect(r.tookBaseline).toBe(true);
    expect(r.learn).toEqual([addr(1), addr(2)]);
    expect(r.verdicts.get(addr(1))).toEqual({ kind: 'known' });
    expect(r.unknown).toEqual([]);
  });

  it('says "second unknown key within a day" only for a second one within 24 hours', () => {
    const now = T0 + HOUR;
    expect(judge({ current: [key(1)], fresh: [key(1)] }).repeatWithinDay).toBe(false);
    expect(judge({ state: state({ unknownSeen: [{ delegate: addr(5), at: now - DAY + 1 }] }), current: [key(1)], fresh: [key(1)] }).repeatWithinDay).toBe(true);
    expect(judge({ state: state({ unknownSeen: [{ delegate: addr(5), at: now - DAY }] }), current: [key(1)], fresh: [key(1)] }).repeatWithinDay).toBe(false);
    // The same key seen again (re-added) is not a second one.
    expect(judge({ state: state({ unknownSeen: [{ delegate: addr(1), at: now - HOUR }] }), current: [key(1)], fresh: [key(1)] }).repeatWithinDay).toBe(false);
    expect(judge({ current: [key(1), key(2)], fresh: [key(1), key(2)] }).repeatWithinDay).toBe(true);
  });

  it('property: failed, empty and partial reads of the known keys never make one unknown', () => {
    // A sequence of reads of an account whose keys never change: each read is complete, empty,
    // a subset, or failed (no check at all). The watch (checkDelegates) then guard run as in collect.
    const read = fc.oneof(
      fc.constant<'failed'>('failed'),
      fc.constant<'empty'>('empty'),
      fc.constant<'all'>('all'),
      fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(read, { minLength: 1, maxLength: 30 }),
        fc.constantFrom('api-keys' as const, 'all' as const),
        fc.boolean(),
        (n, generated, mode, baselineFirst) => {
          // Armed on a complete read; or (the arming read failed) the first read listing anything is complete:
          // a partial first read cannot be told from an account with fewer keys.
          const firstListing = generated.findIndex((r) => r !== 'failed' && r !== 'empty' && (r === 'all' || r.slice(0, n).some(Boolean)));
          const reads = generated.map((r, i) => (!baselineFirst && i === firstListing ? 'all' : r));
          const keys = Array.from({ length: n }, (_, i) => key(i + 1, i % 3 === 2));
          let views = new Map<string, SeenDelegate>();
          let s: KnownDelegateState = baselineFirst ? state({ known: new Set(keys.map((k) => k.address.toLowerCase())) }) : state({ baselineAt: null });
          let now = T0;
          for (const r of reads) {
            now += 5 * 60_000;
            if (r === 'failed') continue;
            const current = r === 'empty' ? [] : r === 'all' ? keys : keys.filter((_, i) => r[i]);
            const checked = checkDelegates({ account: addr(0), previous: views, current, now, firstObservation: false });
            const fresh = checked.events.flatMap((e) => (e.kind === 'new-delegate' ? [e.delegate] : []));
            const listedBefore = [...views].filter(([, v]) => v.removedAt === null).map(([a]) => a);
            const judged = judgeNewDelegates({ mode, state: s, current, fresh, listedBefore, now });
            expect(judged.unknown).toEqual([]);
            expect([...judged.verdicts.values()].every((v) => v.kind === 'known')).toBe(true);
            if (judged.tookBaseline) s = { ...s, baselineAt: now, known: new Set([...s.known, ...judged.learn.map((a) => a.toLowerCase())]) };
            views = checked.next;
          }
        },
      ),
    );
  });

  it('property: a key that is neither known nor announced is unknown when it appears, and revoked as the mode says', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.boolean(), fc.constantFrom('api-keys' as const, 'all' as const), (n, web, mode) => {
        const stranger = key(1000 + n, web);
        const r = judge({ mode, state: state({ known: new Set([addr(1).toLowerCase()]) }), current: [key(1), stranger], fresh: [stranger] });
        expect(r.verdicts.get(stranger.address)).toEqual({ kind: 'unknown', webSession: web, revoke: !web || mode === 'all' });
      }),
    );
  });
});

describe('delegateStanding', () => {
  it('is known, announced while the announcement is open, else unknown', () => {
    const s = { known: new Set([addr(1).toLowerCase()]), announcements: [{ delegate: addr(2), announcedAt: T0, expiresAt: T0 + HOUR }] };
    expect(delegateStanding(addr(1).toUpperCase().replace('0X', '0x'), s, T0)).toEqual({ kind: 'known' });
    expect(delegateStanding(addr(2), s, T0)).toEqual({ kind: 'announced', until: T0 + HOUR });
    expect(delegateStanding(addr(2), s, T0 + HOUR)).toEqual({ kind: 'unknown' });
  });
});
