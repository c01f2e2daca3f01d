import { describe, expect, it } from 'vitest';
import { describeAlertState } from '../../../cli/alertStateText';

const NOW = Date.parse('2026-11-25T10:00:00Z');
const BEGAN = Date.parse('2026-11-25T09:00:00Z');
const ACCOUNT = { address: '0x469E169981C4Eb686cE3a5725bEd607E3AC2f81d', killSwitchSettlement: null };

describe('status: drawdown levels in words', () => {
  it('words a level breached before tracking began as such, not as an alert still to come', () => {
    const rows = describeAlertState(
      'drawdown',
      {
        levels: {
          '5': { status: 'breached', lastValue: 7.2, lastSentAt: null, breachedAt: BEGAN, baseline: true },
          '10': { status: 'armed', lastValue: 7.2, lastSentAt: null, breachedAt: null },
        },
      },
      NOW,
      'UTC',
      ACCOUNT,
    );
    expect(rows[0]?.[0]).toBe('drawdown 5%');
    expect(rows[0]?.[1]).toContain('already breached when tracking began');
    expect(rows[0]?.[1]).not.toContain('no alert sent yet');
    expect(rows[1]).toEqual(['drawdown 10%', 'armed, no alert sent yet']);
  });

  it('keeps the usual words for a breach that alerted', () => {
    const rows = describeAlertState(
      'drawdown',
      { levels: { '5': { status: 'breached', lastValue: 6, lastSentAt: BEGAN, breachedAt: BEGAN } } },
      NOW,
      'UTC',
      ACCOUNT,
    );
    expect(rows[0]?.[1]).toMatch(/^breached since .*, last alert /);
  });
});

describe("status: the kill switch's stored state in words, as accounts show says it", () => {
  it('words a queued firing and a fired dry run, never the stored fields', () => {
    const revoking = describeAlertState('kill-switch', { status: 'revoking', at: BEGAN, decisionId: '811b2c' }, NOW, 'UTC', ACCOUNT);
    expect(revoking).toEqual([['kill switch', 'firing since 2026-11-25T09:00:00.000Z: keys being revoked (decision 811b2c); the result follows']]);
    const dry = describeAlertState('kill-switch', { status: 'fired', at: BEGAN, outcome: 'dry-run' }, NOW, 'UTC', ACCOUNT);
    expect(dry[0]?.[1]).toMatch(/^FIRED at 2026-11-25T09:00:00.000Z \(a dry run: nothing revoked\); fires again after a recovery past the re-arm margin/);
    const idle = describeAlertState('kill-switch', { status: 'idle' }, NOW, 'UTC', ACCOUNT);
    expect(idle).toEqual([['kill switch', 'armed']]);
    for (const [, words] of [...revoking, ...dry, ...idle]) expect(words).not.toMatch(/status "|decisionId "|outcome "/);
  });
});
