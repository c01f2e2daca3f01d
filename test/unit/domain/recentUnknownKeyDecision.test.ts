import { describe, expect, it } from 'vitest';
import { finishedUnit, refusedUnit, type DecisionUnit } from '../../../functions/domain/decisionUnit';
import type { ProtectiveDecision } from '../../../functions/domain/protectiveDecision';
import {
  mostUrgentUnknownKeyDecision,
  recentUnknownKeyDecision,
  unknownKeyDecisionRefs,
  UNKNOWN_KEY_NOT_REVOKED_SHOWN_MS,
  UNKNOWN_KEY_READ_HORIZON_MS,
  UNKNOWN_KEY_REVOKED_SHOWN_MS,
  unknownKeyDecisionWorthReading,
} from '../../../functions/domain/recentUnknownKeyDecision';
import { unknownKeyDecisionText } from '../../../functions/domain/unknownKeyDecisionText';
import { decisionSettlement } from '../../../functions/domain/decisionSettlement';
import { testAddress } from '../../support/store/accountFixture';

const NOW = Date.UTC(2030, 0, 7, 9);
const HOUR = 3_600_000;
const KEY = testAddress(1, 0x9b);
/** An unknown-key decision about `KEY`, made at `NOW`. */
const decision = {
  decisionId: 'unknown-0123456789ab',
  account: testAddress(9, 0x9b),
  rule: 'unknown-delegate',
  reason: 'unknown delegate',
  evidence: { delegate: KEY, judgedAgain: false },
  dryRun: false,
  createdAt: NOW,
  delegates: [KEY],
} satisfies ProtectiveDecision;
const revokedAt = (at: number): ReadonlyMap<string, DecisionUnit> =>
  new Map([[KEY, { state: 'done', at, result: finishedUnit({ kind: 'revoked', sent: true, nonce: 1, transactionSignature: '0xab' }, at, 'bot', null) }]]);
const refusedAt = (at: number): ReadonlyMap<string, DecisionUnit> =>
  new Map([[KEY, { state: 'done', at, result: refusedUnit({ code: 'breaker-open', text: 'the breaker was open' }, at + HOUR) }]]);

describe('recentUnknownKeyDecision', () => {
  it("is being revoked while the key's unit has no final result, in status's words", () => {
    for (const units of [new Map<string, DecisionUnit>(), new Map<string, DecisionUnit>([[KEY, { state: 'waiting', at: NOW, lastFailure: 'chain down' }]])]) {
      expect(recentUnknownKeyDecision(decision, units, NOW + HOUR)).toEqual({
        decisionId: decision.decisionId,
        kind: 'revoking',
        text: `${KEY}: being revoked (decision ${decision.decisionId})`,
      });
    }
  });

  it('is revoked for 24 hours after it settled, then no longer shown', () => {
    const settled = NOW + 60_000;
    const units = revokedAt(settled);
    const shown = recentUnknownKeyDecision(decision, units, settled + UNKNOWN_KEY_REVOKED_SHOWN_MS - 1);
    expect(shown).toEqual({
      decisionId: decision.decisionId,
      kind: 'revoked',
      text: unknownKeyDecisionText({ delegate: KEY, decisionId: decision.decisionId, judgedAgain: false, settlement: decisionSettlement(decision, units) }),
    });
    expect(shown?.text).toBe(`${KEY}: revoked (2030-01-07T09:01:00.000Z)`);
    expect(recentUnknownKeyDecision(decision, units, settled + UNKNOWN_KEY_REVOKED_SHOWN_MS)).toBeNull();
  });

  it('is NOT revoked for 72 hours after a refusal settled it (longer than a revocation), with why and what happens next', () => {
    expect(UNKNOWN_KEY_NOT_REVOKED_SHOWN_MS).toBeGreaterThan(UNKNOWN_KEY_REVOKED_SHOWN_MS);
    const settled = NOW + 60_000;
    const units = refusedAt(settled);
    const late = settled + UNKNOWN_KEY_REVOKED_SHOWN_MS + HOUR;
    expect(recentUnknownKeyDecision(decision, units, late)).toEqual({
      decisionId: decision.decisionId,
      kind: 'not-revoked',
      text: `${KEY}: NOT revoked, refused at 2030-01-07T09:01:00.000Z: the breaker was open; judged again at the first check after 2030-01-07T10:01:00.000Z`,
    });
    // A judgment again that was refused is not tried again: the desk must revoke it.
    const again = { ...decision, evidence: { ...decision.evidence, judgedAgain: true } };
    expect(recentUnknownKeyDecision(again, units, late)?.text).toContain('not tried again automatically: revoke it yourself');
    expect(recentUnknownKeyDecision(decision, units, settled + UNKNOWN_KEY_NOT_REVOKED_SHOWN_MS)).toBeNull();
  });

  it('is nothing for a dry run or a kill-switch decision', () => {
    expect(recentUnknownKeyDecision({ ...decision, dryRun: true }, new Map(), NOW)).toBeNull();
    expect(recentUnknownKeyDecision({ ...decision, rule: 'kill-switch' }, revokedAt(NOW), NOW)).toBeNull();
  });
});

describe('unknownKeyDecisionWorthReading', () => {
  it('reads no decision for an account without one, nor for one made longer ago than any is shown', () => {
    expect(unknownKeyDecisionWorthReading(null, NOW)).toBe(false);
    const latest = { decisionId: decision.decisionId, at: NOW };
    expect(unknownKeyDecisionWorthReading(latest, NOW)).toBe(true);
    expect(unknownKeyDecisionWorthReading(latest, NOW + UNKNOWN_KEY_READ_HORIZON_MS - 1)).toBe(true);
    expect(unknownKeyDecisionWorthReading(latest, NOW + UNKNOWN_KEY_READ_HORIZON_MS)).toBe(false);
    // Every settled decision shown is read: the signer settles one within an hour of it being made.
    expect(UNKNOWN_KEY_READ_HORIZON_MS).toBeGreaterThanOrEqual(UNKNOWN_KEY_NOT_REVOKED_SHOWN_MS + HOUR);
  });
});

describe('several unknown-key decisions of one account', () => {
  const ref = (id: string, hoursAgo: number) => ({ decisionId: `unknown-${id.padEnd(12, '0')}`, at: NOW - hoursAgo * HOUR });
  const c = ref('c', 2);
  const d = ref('d', 1);

  it('reads the latest and the earlier ones still within the horizon at now', () => {
    const kept = { ...d, earlier: [c, ref('far', UNKNOWN_KEY_READ_HORIZON_MS / HOUR + 0.5)] };
    expect(unknownKeyDecisionRefs(kept, NOW)).toEqual([d, c]);
    expect(unknownKeyDecisionRefs(null, NOW)).toEqual([]);
  });

  it('shows a key not revoked before one being revoked, and that before one revoked; the newest of the most urgent', () => {
    const of = (decisionId: string, kind: 'revoking' | 'revoked' | 'not-revoked') => ({ decisionId, kind, text: kind });
    expect(mostUrgentUnknownKeyDecision([of('new', 'revoked'), of('mid', 'revoking'), of('old', 'not-revoked')])?.decisionId).toBe('old');
    expect(mostUrgentUnknownKeyDecision([of('new', 'revoked'), null, of('old', 'revoking')])?.decisionId).toBe('old');
    expect(mostUrgentUnknownKeyDecision([of('new', 'not-revoked'), of('old', 'not-revoked')])?.decisionId).toBe('new');
    expect(mostUrgentUnknownKeyDecision([null, null])).toBeNull();
  });
});
