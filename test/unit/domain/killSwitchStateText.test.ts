import { describe, expect, it } from 'vitest';
import type { DecisionSettlement } from '../../../functions/domain/decisionSettlement';
import { killSwitchStateText } from '../../../functions/domain/killSwitchStateText';
import { testAddress } from '../../support/store/accountFixture';

const ACCOUNT = testAddress(9, 0x57);
const KEY = testAddress(1, 0x57);
const AT = Date.UTC(2030, 0, 7, 9);
const revoking = { status: 'revoking' as const, at: AT, decisionId: 'd1' };
const settled = (status: 'revoked' | 'refused' | 'failed', text: string): DecisionSettlement => ({
  decisionId: 'd1',
  rule: 'kill-switch',
  reason: 'kill-switch',
  units: [{ address: KEY, name: null, status, text, refusal: status === 'refused' ? 'breaker-open' : null, retryAt: null }],
  count: { revoked: status === 'revoked' ? 1 : 0, gone: 0, refused: status === 'refused' ? 1 : 0, failed: status === 'failed' ? 1 : 0 },
  settledAt: AT + 60_000,
});

describe('killSwitchStateText', () => {
  it('while the signer has not settled: being revoked, not FIRED', () => {
    expect(killSwitchStateText(revoking, ACCOUNT)).toBe(`firing since ${new Date(AT).toISOString()}: keys being revoked (decision d1); the result follows`);
  });

  it('FIRED once something was revoked', () => {
    expect(killSwitchStateText(revoking, ACCOUNT, settled('revoked', 'revoked'))).toMatch(/^FIRED at .*: 1 of 1 key revoked; fires again after a recovery/);
  });

  it('FIRED with how many keys were revoked, and why the first one not revoked was not', () => {
    const one = settled('revoked', 'revoked');
    const other = { ...settled('refused', 'refused: a web-client session key').units[0]!, address: testAddress(2, 0x57) };
    const partly: DecisionSettlement = { ...one, units: [...one.units, other], count: { revoked: 1, gone: 0, refused: 1, failed: 0 } };
    expect(killSwitchStateText(revoking, ACCOUNT, partly)).toBe(
      `FIRED at ${new Date(AT).toISOString()}: 1 of 2 keys revoked, 1 not (refused: a web-client session key); fires again after a recovery past the re-arm margin, or "sentinel accounts rearm ${ACCOUNT}"`,
    );
  });

  it('fired, refused (or failed) and why, when nothing was: re-armable, no cap spent', () => {
    const refused = killSwitchStateText(revoking, ACCOUNT, settled('refused', 'the breaker was open: 9 accounts fired kill-switch within an hour'));
    expect(refused).toBe(
      `fired at ${new Date(AT).toISOString()}, refused at ${new Date(AT + 60_000).toISOString()}: the breaker was open: 9 accounts fired kill-switch within an hour; nothing revoked and no cap spent: "sentinel accounts rearm ${ACCOUNT}" arms it again (it also re-arms after a recovery past the re-arm margin)`,
    );
    expect(killSwitchStateText(revoking, ACCOUNT, settled('failed', 'it could not be signed within 5 minutes'))).toContain('failed at');
  });

  it('a firing with no decision to sign says what the service answered', () => {
    expect(killSwitchStateText({ status: 'fired', at: AT, outcome: 'protection-off' }, ACCOUNT)).toContain('nothing revoked: protection was off stage-wide');
    expect(killSwitchStateText({ status: 'fired', at: AT }, ACCOUNT)).toMatch(/^FIRED at /);
  });
});
