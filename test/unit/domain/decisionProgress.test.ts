import { describe, expect, it } from 'vitest';
import { decisionProgress } from '../../../functions/domain/decisionProgress';
import { finishedUnit, type DecisionUnit } from '../../../functions/domain/decisionUnit';
import type { ProtectiveDecision } from '../../../functions/domain/protectiveDecision';
import { testAddress } from '../../support/store/accountFixture';

const NOW = Date.UTC(2030, 0, 7, 9);
const [A, B] = [testAddress(1, 0x9a), testAddress(2, 0x9a)];
/** A kill-switch decision of two delegates, not a dry run. */
const decision = {
  decisionId: 'progress-0123456789',
  account: testAddress(9, 0x9a),
  rule: 'kill-switch',
  reason: 'kill-switch: drawdown 31.00% now',
  evidence: { drawdownPct: 31 },
  dryRun: false,
  createdAt: NOW,
  delegates: [A, B],
} satisfies ProtectiveDecision;
const revoked: DecisionUnit = {
  state: 'done',
  at: NOW,
  result: finishedUnit({ kind: 'revoked', sent: true, nonce: 1, transactionSignature: '0xab' }, NOW, 'bot', null),
};

describe('decisionProgress', () => {
  it('is a dry run for a dry-run decision, whatever its units say', () => {
    expect(decisionProgress({ ...decision, dryRun: true }, new Map([[A, revoked]]))).toEqual({ kind: 'dry-run' });
  });

  it('is in progress while a delegate has no final result, each delegate with its unit (null: queued)', () => {
    const waiting: DecisionUnit = { state: 'waiting', at: NOW, lastFailure: 'chain unreachable' };
    expect(decisionProgress(decision, new Map([[A, revoked]]))).toEqual({
      kind: 'in-progress',
      delegates: [
        { address: A, unit: revoked },
        { address: B, unit: null },
      ],
    });
    expect(
      decisionProgress(
        decision,
        new Map<string, DecisionUnit>([
          [A, revoked],
          [B, waiting],
        ]),
      ),
    ).toMatchObject({ kind: 'in-progress', delegates: [{ unit: revoked }, { unit: waiting }] });
  });

  it("is settled once every delegate ended, with the signer's result for each", () => {
    const progress = decisionProgress(
      decision,
      new Map([
        [A, revoked],
        [B, revoked],
      ]),
    );
    expect(progress.kind).toBe('settled');
    if (progress.kind === 'settled') expect(progress.settlement.count.revoked).toBe(2);
  });
});
