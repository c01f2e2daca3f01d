import { describe, expect, it } from 'vitest';
import type { ObservedDelegate } from '../../../functions/domain/delegateAlerts';
import { finishedUnit, refusedUnit, type DecisionUnit } from '../../../functions/domain/decisionUnit';
import { judgeAgain, pendingUnknownKeys } from '../../../functions/domain/decideDelegateCheck';
import type { KnownDelegateState } from '../../../functions/domain/judgeNewDelegates';
import { testAddress } from '../../support/store/accountFixture';

const NOW = Date.UTC(2030, 0, 7, 9);
const HOUR = 3_600_000;
const [KEY, OTHER, KNOWN] = [testAddress(1, 0x1a), testAddress(2, 0x1a), testAddress(3, 0x1a)];
const listed = (address: string, isWebClient = false): ObservedDelegate => ({ address, name: null, expiryMs: null, isWebClient });
const state = (overrides: Partial<KnownDelegateState> = {}): KnownDelegateState => ({
  baselineAt: NOW - 10 * HOUR,
  known: new Set([KNOWN.toLowerCase()]),
  announcements: [],
  unknownSeen: [{ delegate: KEY, at: NOW - HOUR, decisionId: 'd1' }],
  ...overrides,
});
const done = (result: ReturnType<typeof refusedUnit>): DecisionUnit => ({ state: 'done', at: NOW - 1, result });

describe('pendingUnknownKeys', () => {
  it('lists unknown keys listed again with a queued decision, not judged again yet, neither fresh, known nor announced', () => {
    expect(pendingUnknownKeys(state(), [listed(KEY), listed(KNOWN)], [], NOW).map((p) => p.seen.decisionId)).toEqual(['d1']);
    expect(pendingUnknownKeys(state(), [listed(KNOWN)], [], NOW)).toEqual([]);
    expect(pendingUnknownKeys(state(), [listed(KEY)], [listed(KEY)], NOW)).toEqual([]);
    expect(
      pendingUnknownKeys(state({ unknownSeen: [{ delegate: KEY, at: NOW - HOUR, decisionId: 'd1', judgedAgain: true }] }), [listed(KEY)], [], NOW),
    ).toEqual([]);
    expect(pendingUnknownKeys(state({ unknownSeen: [{ delegate: KEY, at: NOW - HOUR }] }), [listed(KEY)], [], NOW)).toEqual([]);
    expect(pendingUnknownKeys(state({ announcements: [{ delegate: KEY, announcedAt: NOW - 1, expiresAt: NOW + HOUR }] }), [listed(KEY)], [], NOW)).toEqual([]);
  });
});

describe('judgeAgain', () => {
  const pending = (isWebClient = false) => pendingUnknownKeys(state(), [listed(KEY, isWebClient)], [], NOW);
  const units = (unit: DecisionUnit | null) => new Map([[KEY.toLowerCase(), unit]]);

  it('judges a refused or failed key again once its retry time has come', () => {
    const aged = done(refusedUnit({ code: 'aged', text: 'x' }, NOW));
    expect(judgeAgain({ mode: 'api-keys', pending: pending(), units: units(aged), now: NOW })).toEqual({
      judge: [{ delegate: listed(KEY), revoke: true, webSession: false }],
      recheckAt: null,
    });
    // An intruder re-signed it as a web session: judged again, kept under api-keys (and raised), revoked under all.
    expect(judgeAgain({ mode: 'api-keys', pending: pending(true), units: units(aged), now: NOW }).judge[0]).toMatchObject({ revoke: false, webSession: true });
    expect(judgeAgain({ mode: 'all', pending: pending(true), units: units(aged), now: NOW }).judge[0]).toMatchObject({ revoke: true });
  });

  it('waits for the breaker to close (its retry time), and looks again then', () => {
    const breaker = done(refusedUnit({ code: 'breaker-open', text: 'x' }, NOW + HOUR));
    expect(judgeAgain({ mode: 'api-keys', pending: pending(), units: units(breaker), now: NOW })).toEqual({ judge: [], recheckAt: NOW + HOUR });
  });

  it('while a decision is unsettled, looks again at the next check; a revoked key or one not to retry is left alone', () => {
    expect(judgeAgain({ mode: 'api-keys', pending: pending(), units: units(null), now: NOW })).toEqual({ judge: [], recheckAt: NOW });
    expect(judgeAgain({ mode: 'api-keys', pending: pending(), units: units({ state: 'waiting', at: NOW, lastFailure: 'x' }), now: NOW }).recheckAt).toBe(NOW);
    const revoked = done(finishedUnit({ kind: 'revoked', sent: true, nonce: 1, transactionSignature: '0xab' }, NOW, null, null));
    expect(judgeAgain({ mode: 'api-keys', pending: pending(), units: units(revoked), now: NOW })).toEqual({ judge: [], recheckAt: null });
    expect(judgeAgain({ mode: 'off', pending: pending(), units: units(null), now: NOW })).toEqual({ judge: [], recheckAt: null });
  });

  it('other pending keys are judged on their own results', () => {
    const two = pendingUnknownKeys(
      state({
        unknownSeen: [
          { delegate: KEY, at: NOW, decisionId: 'd1' },
          { delegate: OTHER, at: NOW, decisionId: 'd2' },
        ],
      }),
      [listed(KEY), listed(OTHER)],
      [],
      NOW,
    );
    const result = judgeAgain({
      mode: 'api-keys',
      pending: two,
      units: new Map([
        [KEY.toLowerCase(), done(refusedUnit({ code: 'protection-off', text: 'x' }, NOW))],
        [OTHER.toLowerCase(), null],
      ]),
      now: NOW,
    });
    expect(result.judge.map((j) => j.delegate.address)).toEqual([KEY]);
    expect(result.recheckAt).toBe(NOW);
  });
});
