import { describe, expect, it } from 'vitest';
import type { DecisionResult } from '../../../functions/domain/decisionResult';
import { decisionResultNoticeText } from '../../../functions/notices/decisionResultPresenter';
import { testAddress } from '../../support/store/accountFixture';

const ACCOUNT = testAddress(9, 0x7e);
const [BOT, HEDGER, WEB] = [testAddress(1, 0x7e), testAddress(2, 0x7e), testAddress(3, 0x7e)];
const AT = Date.UTC(2030, 0, 7, 10);
const text = (result: DecisionResult) => decisionResultNoticeText(result, { account: ACCOUNT, time: (ms) => new Date(ms).toISOString() });

const killSwitch: DecisionResult = {
  decisionId: 'd1',
  rule: 'kill-switch',
  reason: 'kill-switch: drawdown 31.00% now, 1-minute re-read 30.4% ≥ 30% at 2030-01-07T09:00:00.000Z',
  units: [
    { address: BOT, name: 'desk bot', status: 'refused', refusal: 'breaker-open', text: 'the breaker was open: 9 accounts fired kill-switch within an hour' },
  ],
  left: [
    { address: BOT, name: 'desk bot', isWebClient: false },
    { address: WEB, name: 'browser', isWebClient: true },
  ],
  judgedAgainAt: null,
};

describe('decisionResultNoticeText', () => {
  it('nothing revoked: says so and why in plain words, who can still trade, how to act now, and that the kill switch can be re-armed with no cap spent', () => {
    const t = text(killSwitch);
    expect(t.title).toBe('Kill switch fired, keys NOT revoked: the breaker was open');
    expect(t.severity).toBe('critical');
    expect(t.rows).toEqual([{ who: `"desk bot" (${BOT})`, status: 'refused', text: killSwitch.units[0]!.text }]);
    const lines = t.lines.join('\n');
    expect(lines).toContain(`Still able to trade this account: "desk bot" (${BOT}), "browser" (${WEB}) (web session).`);
    expect(lines).toContain('Revoke-all link');
    expect(lines).toContain(`Nothing of the kill switch's daily cap was spent`);
    expect(lines).toContain(`sentinel accounts rearm ${ACCOUNT}`);
    expect(lines).toContain('resting orders, TWAPs and open positions stay');
    expect(t.actNow).toBe(true);
  });

  it('partly revoked, every key revoked, and the chain unreadable afterwards', () => {
    const partly = text({
      ...killSwitch,
      units: [
        { address: BOT, name: null, status: 'revoked', refusal: null, text: 'the chain accepted the transaction (nonce 3)' },
        { address: HEDGER, name: 'hedger', status: 'failed', refusal: 'aged', text: 'it could not be signed within 5 minutes' },
      ],
    });
    expect(partly.title).toBe('Kill switch: 1 of 2 keys revoked, 1 NOT revoked');
    const all = text({ ...killSwitch, units: [{ address: BOT, name: null, status: 'revoked', refusal: null, text: 'revoked' }], left: [] });
    expect(all).toMatchObject({ title: 'Kill switch: 1 key revoked', severity: 'info', actNow: false });
    expect(all.lines.join(' ')).toContain('only the owner key can trade this account');
    expect(text({ ...killSwitch, left: null }).lines[0]).toContain(`sentinel delegates list ${ACCOUNT}`);
  });

  it('an unknown key: revoked, or not and whether the watch judges it again', () => {
    const unknown: DecisionResult = {
      ...killSwitch,
      rule: 'unknown-delegate',
      reason: 'unknown delegate',
      units: [{ address: BOT, name: null, status: 'failed', refusal: 'aged', text: 'it could not be signed within 5 minutes: the chain could not be reached' }],
      judgedAgainAt: AT,
    };
    expect(text(unknown).title).toBe('Unknown key NOT revoked: it could not be signed in time');
    expect(text(unknown).lines.join(' ')).toContain(`judged again at the first check after ${new Date(AT).toISOString()}`);
    expect(text({ ...unknown, judgedAgainAt: null }).lines.join(' ')).toContain('not tried again automatically');
    expect(text({ ...unknown, units: [{ ...unknown.units[0]!, status: 'revoked', refusal: null }], left: [] }).title).toBe('Unknown key revoked');
  });
});
