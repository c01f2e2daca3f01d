import { describe, expect, it } from 'vitest';
import { compareDigestRows, digestRows, type DigestEntry } from '../../../../functions/domain/digestModel';
import { addMonths, periodWindows, reportWindows } from '../../../../functions/domain/reportWindows';
import { localDayBounds } from '../../../../functions/domain/localTime';
import { buildReportModel } from '../../../../functions/domain/reportModel';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-23T08:00:00Z');

/** An account whose stored history falls `dropPct` % from its peak and whose day returned `dayPnl` on 100,000. */
function entry(label: string, dropPct: number, dayPnl: number, thresholds: number[] = [5, 10], expiries: number[] = []): DigestEntry {
  const windows = reportWindows('2026-11-22', 'UTC').map((window) => ({
    window,
    summary: null,
    previous: null,
    series: [
      { timestamp: window.fromMs, equity: 100_000, pnl: 0 },
      { timestamp: window.toMs, equity: 100_000 + dayPnl, pnl: dayPnl },
    ],
  }));
  const model = buildReportModel({
    settings: { address: `0x${label.padStart(40, '0')}`, label, timezone: 'UTC', interval: '1h' },
    day: { localDate: '2026-11-22', ...localDayBounds('2026-11-22', 'UTC') },
    windows,
    history: [
      { timestamp: NOW - 2 * HOUR, equity: 100_000, pnl: 0 },
      { timestamp: NOW - HOUR, equity: 100_000 * (1 - dropPct / 100), pnl: -1_000 * dropPct },
    ],
    delegates: expiries.map((e, i) => ({ address: `0x${String(i + 1).padStart(40, '0')}`, name: null, expiryMs: NOW + e * 24 * HOUR, isWebClient: false })),
    now: NOW,
  });
  return { kind: 'ok', model, drawdownThresholds: thresholds };
}

describe('the digest order, worst first', () => {
  it('puts unreadable accounts first, then more open alerts, deeper drawdown, more expiring delegates, lower return, then the label', () => {
    const rows = digestRows(
      [
        entry('b-quiet', 0, 100),
        entry('a-quiet', 0, 100),
        entry('losing', 0, -500),
        entry('expiring', 0, 100, [5], [3, 30]),
        entry('deep', 8, 0, [20]),
        entry('two-alerts', 12, 0),
        { kind: 'unavailable', account: { address: `0x${'9'.repeat(40)}`, label: 'unreadable' }, reason: 'the chain could not be reached' },
        entry('one-alert', 6, 0),
      ],
      NOW,
    );
    expect(rows.map((r) => r.account.label)).toEqual(['unreadable', 'two-alerts', 'one-alert', 'deep', 'expiring', 'losing', 'a-quiet', 'b-quiet']);
    expect(rows.map((r) => r.openAlerts)).toEqual([0, 2, 1, 0, 0, 0, 0, 0]);
    expect(rows.find((r) => r.account.label === 'expiring')?.expiringDelegates).toBe(1);
    expect(rows[0]).toMatchObject({ unavailable: 'the chain could not be reached', equity: null });
    expect(compareDigestRows(rows[1]!, rows[1]!)).toBe(0);
  });
});

describe('summary windows', () => {
  it('clamps a month to the length of the month it lands in', () => {
    expect(addMonths('2025-03-31', -1)).toBe('2025-02-28');
    expect(addMonths('2024-03-31', -1)).toBe('2024-02-29');
    expect(addMonths('2025-01-15', -2)).toBe('2024-11-15');
    expect(addMonths('2025-12-01', 1)).toBe('2026-01-01');
  });

  it('a month sent on the 1st covers exactly the last calendar month, and the previous one the month before', () => {
    const { current, previous } = periodWindows('month', '2025-04-01', 'Europe/Berlin');
    expect([current.fromMs, current.toMs]).toEqual([
      localDayBounds('2025-03-01', 'Europe/Berlin').startMs,
      localDayBounds('2025-04-01', 'Europe/Berlin').startMs,
    ]);
    expect([previous.fromMs, previous.toMs]).toEqual([localDayBounds('2025-02-01', 'Europe/Berlin').startMs, current.fromMs]);
    expect(current.days).toBe(31);
    expect(current.key).toBe('month');
  });

  it('a week is the 7 local days before the report date, the previous week the 7 before those', () => {
    const { current, previous } = periodWindows('week', '2025-11-03', 'America/New_York');
    expect(current.fromMs).toBe(localDayBounds('2025-10-27', 'America/New_York').startMs);
    expect(current.toMs).toBe(localDayBounds('2025-11-03', 'America/New_York').startMs);
    // 2 November 2025 is 25 hours long in New York.
    expect(current.toMs - current.fromMs).toBe(7 * 24 * HOUR + HOUR);
    expect(previous.toMs).toBe(current.fromMs);
    expect(previous.days).toBe(7);
  });
});
