import { describe, expect, it } from 'vitest';
import { decisionSettlement } from '../../../functions/domain/decisionSettlement';
import { finishedUnit, refusedUnit, unknownUnit, type DecisionUnit, type UnitResult } from '../../../functions/domain/decisionUnit';
import type { ProtectiveDecision } from '../../../functions/domain/protectiveDecision';
import { testAddress } from '../../support/store/accountFixture';

const NOW = Date.UTC(2030, 0, 7, 9);
const HOUR_MS = 3_600_000;
const [A, B] = [testAddress(1, 0x5e), testAddress(2, 0x5e)];
const decision: ProtectiveDecision = {
  decisionId: 'decision-0123456789',
  account: testAddress(9, 0x5e),
  rule: 'kill-switch',
  reason: 'kill-switch: drawdown 31.00% now',
  evidence: {},
  delegates: [A, B],
  createdAt: NOW,
  dryRun: false,
};
const done = (result: UnitResult, at = NOW): DecisionUnit => ({ state: 'done', at, result });

describe('decisionSettlement', () => {
  it('is null until every delegate has a final result (one signing, one waiting for a redelivery)', () => {
    const revoked = done(finishedUnit({ kind: 'revoked', sent: true, nonce: 4, transactionSignature: '0xab' }, NOW, 'desk bot', null));
    expect(decisionSettlement(decision, new Map([[A, revoked]]))).toBeNull();
    expect(
      decisionSettlement(
        decision,
        new Map([
          [A, revoked],
          [B, { state: 'signing', at: NOW }],
        ]),
      ),
    ).toBeNull();
    expect(
      decisionSettlement(
        decision,
        new Map([
          [A, revoked],
          [B, { state: 'waiting', at: NOW, lastFailure: 'the chain could not be reached' }],
        ]),
      ),
    ).toBeNull();
    expect(
      decisionSettlement(
        { ...decision, dryRun: true },
        new Map([
          [A, revoked],
          [B, revoked],
        ]),
      ),
    ).toBeNull();
  });

  it('tallies revoked, refused and failed delegates in the decision order, with when the last ended', () => {
    const settled = decisionSettlement(
      decision,
      new Map([
        [B, done(unknownUnit(NOW + 5), NOW + 5)],
        [A, done(refusedUnit({ code: 'breaker-open', text: 'the breaker was open' }, NOW + HOUR_MS), NOW + 2)],
      ]),
    );
    expect(settled).toMatchObject({
      decisionId: decision.decisionId,
      count: { revoked: 0, gone: 0, refused: 1, failed: 1 },
      settledAt: NOW + 5,
      units: [
        { address: A, status: 'refused', refusal: 'breaker-open', retryAt: NOW + HOUR_MS },
        { address: B, status: 'failed', refusal: null },
      ],
    });
  });

  it('a decision past its age failed rather than was refused; the chain refusing it failed; a key gone already is gone', () => {
    expect(refusedUnit({ code: 'aged', text: 'x' }, NOW).status).toBe('failed');
    expect(finishedUnit({ kind: 'rejected', sent: true, nonce: 1, transactionSignature: '0xab', message: 'no' }, NOW, null, null)).toMatchObject({
      status: 'failed',
      retryAt: NOW,
    });
    expect(finishedUnit({ kind: 'already-revoked', sent: false }, NOW, null, null)).toMatchObject({ status: 'gone', retryAt: null });
    expect(finishedUnit({ kind: 'not-authorized', sent: false }, NOW, 'browser', { code: 'web-session', text: 'web session' })).toMatchObject({
      status: 'refused',
      refusal: 'web-session',
      name: 'browser',
    });
  });
});
