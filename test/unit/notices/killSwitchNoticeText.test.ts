import { describe, expect, it } from 'vitest';
import { killSwitchFiringSchema, type KillSwitchFiring } from '../../../functions/domain/killSwitchFiring';
import { killSwitchNoticeText } from '../../../functions/notices/killSwitchPresenter';
import type { ProtectiveActionOutcome } from '../../../functions/domain/protectiveAction';

const BOT = '0x0000000000000000000000000000000000000011';
const WEB = '0x0000000000000000000000000000000000000022';
const ACCOUNT = '0x0000000000000000000000000000000000000033';

function firing(outcome: ProtectiveActionOutcome | null): KillSwitchFiring {
  return killSwitchFiringSchema.parse({
    levelPct: 30,
    drawdownPct: 31.2,
    rereadPct: 30.4,
    peakAt: 1,
    asOf: 2,
    reason: 'kill-switch: drawdown 30.4% ≥ 30% at 2030-01-07T00:00:00.000Z',
    requested: [BOT],
    keptWebSessions: [WEB],
    action: outcome === null ? { kind: 'not-set-up' } : { kind: 'requested', outcome },
  });
}

const text = (f: KillSwitchFiring) => killSwitchNoticeText(f, { account: ACCOUNT, percent: (p) => `${p.toFixed(1)}%` });

describe('killSwitchNoticeText', () => {
  it('every outcome says what revocation leaves behind and how to re-arm', () => {
    const outcomes: (ProtectiveActionOutcome | null)[] = [
      { kind: 'queued', decisionId: 'd', delegates: [BOT] },
      { kind: 'dry-run', decisionId: 'd', delegates: [BOT] },
      { kind: 'protection-off' },
      { kind: 'not-armed' },
      { kind: 'capped', cap: '1 kill-switch firing per 24 hours' },
      { kind: 'breaker-open', firedAccounts: 6 },
      { kind: 'nothing-to-revoke' },
      null,
    ];
    for (const outcome of outcomes) {
      const t = text(firing(outcome));
      expect(t.lines.join(' ')).toContain('resting orders, TWAPs and open positions stay');
      expect(t.lines.join(' ')).toContain(`sentinel accounts rearm ${ACCOUNT}`);
      expect(t.summary).toContain('30.4% ≥ 30%');
    }
  });

  it('queued revokes and lists the keys; a dry run says it would have; the others say why not', () => {
    expect(text(firing({ kind: 'queued', decisionId: 'd', delegates: [BOT] }))).toMatchObject({ revoking: true, delegates: [BOT], severity: 'critical' });
    const dry = text(firing({ kind: 'dry-run', decisionId: 'd', delegates: [BOT] }));
    expect(dry).toMatchObject({ revoking: false, delegates: [BOT] });
    expect(dry.title).toContain('dry run');
    expect(dry.lines.join(' ')).toContain(`${WEB} (web session)`);
    expect(text(firing({ kind: 'protection-off' })).lines[0]).toContain('sentinel protection on');
    expect(text(firing({ kind: 'capped', cap: '1 kill-switch firing per 24 hours' })).lines[0]).toContain('1 kill-switch firing per 24 hours');
    expect(text(firing({ kind: 'breaker-open', firedAccounts: 6 })).lines[0]).toContain('operator');
    expect(text(firing(null)).lines[0]).toContain('not set up');
    expect(text(firing({ kind: 'breaker-open', firedAccounts: 6 })).title).toContain('NOT revoked');
  });

  it("shows the drawdown now and says how the firing was confirmed: the crossing's minute and the one before, from a held peak", () => {
    const summary = text(firing({ kind: 'queued', decisionId: 'd', delegates: [BOT] })).summary;
    expect(summary).toContain('31.2% now');
    expect(summary).toContain("the crossing's minute and the one before it were both past the level");
    expect(summary).toContain('from a peak the account held for two minutes');
    expect(summary).not.toMatch(/peak and the trough/);
  });
});
