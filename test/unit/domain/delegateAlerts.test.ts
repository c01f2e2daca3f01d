import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkDelegates,
  type DelegateCheckInput,
  type DelegateEvent,
  type ObservedDelegate,
  type SeenDelegate,
} from '../../../functions/domain/delegateAlerts';

const DAY = 86_400_000;
const ACCOUNT = '0xAccount';
const key = (address: string, expiryMs: number | null, name: string | null = 'bot'): ObservedDelegate => ({ address, expiryMs, name, isWebClient: false });

/** Feeds each poll's stored view into the next, starting from a first observation. */
function polls(snapshots: ReadonlyArray<{ at: number; delegates: ObservedDelegate[] }>, extra: Partial<DelegateCheckInput> = {}) {
  let previous = new Map<string, SeenDelegate>();
  return snapshots.map(({ at, delegates }, i) => {
    const result = checkDelegates({ account: ACCOUNT, previous, current: delegates, now: at, firstObservation: i === 0, ...extra });
    previous = result.next;
    return result;
  });
}
const summary = (events: DelegateEvent[]) => events.map((e) => (e.kind === 'expiry-warning' ? `${e.kind}:${e.stepDays}` : e.kind));

describe('checkDelegates', () => {
  it('takes the delegates found at the first observation as the baseline, not as new', () => {
    const [first] = polls([{ at: 0, delegates: [key('0xA', null), key('0xB', 100 * DAY)] }]);
    expect(first?.events).toEqual([]);
    expect(first?.next.get('0xA')).toMatchObject({ firstSeenAt: 0, generation: 1, removedAt: null });
  });

  it('flags a delegate that appears later as new, with a stable id', () => {
    const results = polls([
      { at: 0, delegates: [key('0xA', null)] },
      { at: DAY, delegates: [key('0xA', null), key('0xB', 30 * DAY, 'unknown')] },
      { at: 2 * DAY, delegates: [key('0xA', null), key('0xB', 30 * DAY, 'unknown')] },
    ]);
    expect(results[1]?.events).toEqual([
      { kind: 'new-delegate', id: `delegate:${ACCOUNT}:0xB:1:new`, account: ACCOUNT, delegate: key('0xB', 30 * DAY, 'unknown'), firstSeenAt: DAY },
    ]);
    expect(results[2]?.events).toEqual([]);
  });

  it('warns once per step, for the smallest step reached, skipping steps passed over between checks', () => {
    const expiry = 20 * DAY;
    const at = (daysLeft: number) => ({ at: expiry - daysLeft * DAY, delegates: [key('0xA', expiry)] });
    const results = polls([at(16), at(13.5), at(13), at(6.9), at(0.5), at(0.25)]);
    expect(results.map((r) => summary(r.events))).toEqual([[], ['expiry-warning:14'], [], ['expiry-warning:7'], ['expiry-warning:1'], []]);
    const warning = results[4]?.events[0];
    expect(warning).toMatchObject({ id: `delegate:${ACCOUNT}:0xA:1:expiry:${expiry}:1d`, remainingMs: 0.5 * DAY, expiryMs: expiry });
    expect(results[4]?.next.get('0xA')?.warningsSent).toEqual([14, 7, 3, 1]);
  });

  it('found with 2 days left on the first observation, sends the 3-day warning only', () => {
    const [first] = polls([{ at: 0, delegates: [key('0xA', 2 * DAY)] }]);
    expect(summary(first!.events)).toEqual(['expiry-warning:3']);
    expect(first?.next.get('0xA')?.warningsSent).toEqual([14, 7, 3]);
  });

  it('a new delegate close to expiry gets the new-delegate notice without a separate warning', () => {
    const results = polls([
      { at: 0, delegates: [] },
      { at: DAY, delegates: [key('0xB', 3 * DAY)] },
      { at: 2.5 * DAY, delegates: [key('0xB', 3 * DAY)] },
    ]);
    expect(summary(results[1]!.events)).toEqual(['new-delegate']);
    expect(summary(results[2]!.events)).toEqual(['expiry-warning:1']);
  });

  it('uses the account warn days, in any order', () => {
    const results = polls([{ at: 0, delegates: [key('0xA', 4 * DAY)] }], { warnDays: [2, 5, 5, 30] });
    expect(summary(results[0]!.events)).toEqual(['expiry-warning:5']);
    expect(results[0]?.next.get('0xA')?.warningsSent).toEqual([30, 5]);
  });

  it('sends the expired notice once, for a delegate seen before it expired', () => {
    const results = polls([
      { at: 0, delegates: [key('0xA', 10 * DAY)] },
      { at: 10 * DAY, delegates: [key('0xA', 10 * DAY)] },
      { at: 11 * DAY, delegates: [key('0xA', 10 * DAY)] },
    ]);
    expect(summary(results[0]!.events)).toEqual(['expiry-warning:14']);
    expect(results[1]?.events).toMatchObject([{ kind: 'expired', id: `delegate:${ACCOUNT}:0xA:1:expired:${10 * DAY}` }]);
    expect(results[2]?.events).toEqual([]);
  });

  it('does not announce delegates that were already expired when first seen', () => {
    const results = polls([
      { at: 5 * DAY, delegates: [key('0xA', DAY)] },
      { at: 6 * DAY, delegates: [key('0xA', DAY), key('0xB', 2 * DAY)] },
    ]);
    expect(results[0]?.events).toEqual([]);
    expect(summary(results[1]!.events)).toEqual(['new-delegate']);
    expect(results[1]?.next.get('0xB')?.expiredNoticeSent).toBe(true);
  });

  it('starts the warnings over when the expiry changes', () => {
    const results = polls([
      { at: 0, delegates: [key('0xA', 2 * DAY)] },
      { at: DAY, delegates: [key('0xA', 13 * DAY)] },
    ]);
    expect(summary(results[1]!.events)).toEqual(['expiry-warning:14']);
    expect(results[1]?.next.get('0xA')).toMatchObject({ expiryMs: 13 * DAY, warningsSent: [14], firstSeenAt: 0 });
  });

  it('reports a removal once and treats a re-added delegate as new again, with a new id', () => {
    const results = polls([
      { at: 0, delegates: [key('0xA', null), key('0xB', null)] },
      { at: DAY, delegates: [key('0xB', null)] },
      { at: 2 * DAY, delegates: [key('0xB', null)] },
      { at: 3 * DAY, delegates: [key('0xA', null), key('0xB', null)] },
    ]);
    expect(results[1]?.events).toEqual([
      { kind: 'removed', id: `delegate:${ACCOUNT}:0xA:1:removed`, account: ACCOUNT, address: '0xA', name: 'bot', removedAt: DAY },
    ]);
    expect(results[2]?.events).toEqual([]);
    expect(results[2]?.next.get('0xA')?.removedAt).toBe(DAY);
    expect(results[3]?.events).toMatchObject([{ kind: 'new-delegate', id: `delegate:${ACCOUNT}:0xA:2:new` }]);
    expect(results[3]?.next.get('0xA')).toMatchObject({ generation: 2, removedAt: null, firstSeenAt: 3 * DAY });
  });

  it('is deterministic: the same input gives the same events and ids', () => {
    const input: DelegateCheckInput = {
      account: ACCOUNT,
      previous: new Map(),
      current: [key('0xC', DAY), key('0xA', 2 * DAY), key('0xA', 2 * DAY)],
      now: 0,
      firstObservation: true,
    };
    const a = checkDelegates(input);
    expect(checkDelegates(input)).toEqual(a);
    expect(a.events.map((e) => e.id)).toEqual([`delegate:${ACCOUNT}:0xA:1:expiry:${2 * DAY}:3d`, `delegate:${ACCOUNT}:0xC:1:expiry:${DAY}:1d`]);
  });

  it('over any sequence of checks, warns at most once per step, in decreasing steps, and expires at most once', () => {
    const gaps = fc.array(fc.integer({ min: 1, max: 5 * DAY }), { minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 * DAY }), gaps, (expiry, steps) => {
        let at = 0;
        const results = polls(steps.map((g) => ({ at: (at += g), delegates: [key('0xA', expiry)] })));
        const events = results.flatMap((r) => r.events);
        const warned = events.flatMap((e) => (e.kind === 'expiry-warning' ? [e.stepDays] : []));
        expect(new Set(warned).size).toBe(warned.length);
        expect([...warned].sort((a, b) => b - a)).toEqual(warned);
        for (const e of events) if (e.kind === 'expiry-warning') expect(e.remainingMs).toBeLessThanOrEqual(e.stepDays * DAY);
        expect(events.filter((e) => e.kind === 'expired').length).toBeLessThanOrEqual(1);
        expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
      }),
      { numRuns: 200 },
    );
  });
});
