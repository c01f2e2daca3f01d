import { describe, expect, it } from 'vitest';
import { describeAlertState } from '../../../cli/alertStateText';

const NOW = Date.parse('2026-11-25T10:00:00Z');
const BEGAN = Date.parse('2026-11-25T09:00:00Z');

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
    );
    expect(rows[0]?.[0]).toBe('drawdown 5%');
    expect(rows[0]?.[1]).toContain('already breached when tracking began');
    expect(rows[0]?.[1]).not.toContain('no alert sent yet');
    expect(rows[1]).toEqual(['drawdown 10%', 'armed, no alert sent yet']);
  });

  it('keeps the usual words for a breach that alerted', () => {
    const rows = describeAlertState('drawdown', { levels: { '5': { status: 'breached', lastValue: 6, lastSentAt: BEGAN, breachedAt: BEGAN } } }, NOW, 'UTC');
    expect(rows[0]?.[1]).toMatch(/^breached since .*, last alert /);
  });
});
