import { describe, expect, it } from 'vitest';
import type { RevocationOutcome } from '../../../../functions/domain/revocationOutcome';
import { runDecisionUnit } from '../../../../functions/services/revocation/runDecisionUnit';
import { silentLog } from '../../../../functions/shared/observability';

const JOB = {
  kind: 'decision-unit' as const,
  account: '0x52908400098527886E0F7030069857D2E4169EE7' as const,
  delegate: '0x00000000000000000000000000000000000A11cE' as const,
  decisionId: 'decision-0123456789',
};

/** What the worker makes of each signer answer: a passing failure is redelivered, every other answer is final. */
describe('a decision unit after the signer answered', () => {
  const answered = (outcome: RevocationOutcome) => runDecisionUnit({ sign: async () => ({ kind: 'answered', outcome }), log: silentLog }, JOB);
  it.each<RevocationOutcome>([
    { kind: 'busy', sent: false },
    { kind: 'chain-unreachable', sent: false, message: 'down' },
    { kind: 'signer-unavailable', sent: false, message: 'kms' },
    { kind: 'audit-unavailable', sent: false },
  ])('$kind: tried again', async (outcome) => {
    expect(await answered(outcome)).toEqual({ kind: 'try-again', outcome });
  });
  it.each<RevocationOutcome>([
    { kind: 'not-authorized', sent: false },
    { kind: 'already-revoked', sent: false },
    { kind: 'revoked', sent: true, nonce: 3, transactionSignature: `0x${'ab'.repeat(65)}` },
  ])('$kind: final', async (outcome) => {
    expect(await answered(outcome)).toEqual({ kind: 'finished', outcome });
  });
});
