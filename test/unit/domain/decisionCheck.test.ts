import { describe, expect, it } from 'vitest';
import { decisionRefusal, type DecisionCheckInput } from '../../../functions/domain/decisionCheck';
import type { ProtectiveDecision } from '../../../functions/domain/protectiveDecision';
import { accountRecord, testAddress } from '../../support/store/accountFixture';

const NOW = Date.UTC(2030, 0, 7, 9);
const ACCOUNT = testAddress(1, 0xdc);
const KEY = testAddress(2, 0xdc);

function input(overrides: Omit<Partial<DecisionCheckInput>, 'decision'> & { decision?: Partial<ProtectiveDecision> } = {}): DecisionCheckInput {
  const { decision, ...rest } = overrides;
  return {
    account: ACCOUNT,
    delegate: KEY,
    decision: {
      decisionId: 'decision-0123456789',
      account: ACCOUNT,
      rule: 'unknown-delegate',
      reason: 'unknown delegate',
      evidence: {},
      delegates: [KEY],
      createdAt: NOW - 10_000,
      dryRun: false,
      ...decision,
    },
    tracked: accountRecord({ address: ACCOUNT, revokeUnknown: 'api-keys', killSwitch: 30 }),
    announcements: [],
    known: new Set(),
    protection: 'on',
    now: NOW,
    maxAgeMs: 300_000,
    lastFailure: null,
    ...rest,
  };
}

describe('decisionRefusal', () => {
  it('lets a decision that holds be signed', () => {
    expect(decisionRefusal(input())).toBeNull();
  });

  it('refuses an unknown-key decision for a key of the known set, and only for that rule', () => {
    expect(decisionRefusal(input({ known: new Set([KEY.toLowerCase()]) }))).toMatchObject({ code: 'known-key' });
    // A kill switch revokes known keys too: that is what it is for.
    expect(decisionRefusal(input({ known: new Set([KEY.toLowerCase()]), decision: { rule: 'kill-switch', reason: 'kill-switch: x' } }))).toBeNull();
  });

  it('says, for a decision past its age, what kept it from being signed', () => {
    const aged = decisionRefusal(input({ decision: { createdAt: NOW - 400_000 }, lastFailure: 'the chain could not be reached' }));
    expect(aged).toEqual({ code: 'aged', text: 'it could not be signed within 5 minutes (the decision is 400 s old): the chain could not be reached' });
  });

  it('gives each refusal its code', () => {
    expect(decisionRefusal({ ...input(), decision: null })?.code).toBe('invalid');
    expect(decisionRefusal(input({ protection: 'off' }))?.code).toBe('protection-off');
    expect(decisionRefusal(input({ tracked: null }))?.code).toBe('not-tracked');
    expect(decisionRefusal(input({ tracked: accountRecord({ address: ACCOUNT, revokeUnknown: 'off' }) }))?.code).toBe('not-armed');
    expect(
      decisionRefusal(input({ decision: { rule: 'kill-switch' }, tracked: accountRecord({ address: ACCOUNT, killSwitch: 30, killSwitchDryRun: true }) }))?.code,
    ).toBe('account-dry-run');
    expect(decisionRefusal(input({ tracked: accountRecord({ address: ACCOUNT, revokeUnknown: 'api-keys', keepDelegates: [KEY] }) }))?.code).toBe('kept');
    expect(decisionRefusal(input({ decision: { dryRun: true } }))?.code).toBe('dry-run-decision');
  });
});
