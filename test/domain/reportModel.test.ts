import { describe, expect, it } from 'vitest';
import { SUMMARY_FIELDS, type SummaryField } from '../../functions/domain/summaryFields';
import { drawdown } from '../../functions/domain/drawdown';
import { localDayBounds } from '../../functions/domain/localTime';
import { buildReportModel, type ReportModelInput } from '../../functions/domain/reportModel';
import type { SeriesPoint } from '../../functions/domain/series';
import type { SummaryValues } from '../../functions/domain/summaryDelta';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ZONE = 'Europe/Berlin';
const bounds = localDayBounds('2024-03-31', ZONE); // 23 hours
const summary = (shift: number): SummaryValues =>
  Object.fromEntries(SUMMARY_FIELDS.map((f, i) => [f, i * 10 + shift])) as Record<SummaryField, number>;

const history: SeriesPoint[] = [
  { timestamp: bounds.startMs - DAY, equity: 10_000, pnl: 0 },
  { timestamp: bounds.startMs - HOUR, equity: 11_000, pnl: 1_000 },
  { timestamp: bounds.startMs + HOUR, equity: 10_450, pnl: 450 },
  { timestamp: bounds.startMs + 2 * HOUR, equity: 20_450, pnl: 450 },
  { timestamp: bounds.endMs - HOUR, equity: 20_650, pnl: 650 },
];

function input(overrides: Partial<ReportModelInput> = {}): ReportModelInput {
  return {
    settings: { address: '0x52908400098527886E0F7030069857D2E4169EE7', label: 'Desk', timezone: ZONE },
    day: { localDate: '2024-03-31', ...bounds },
    daySeries: history.filter((p) => p.timestamp > bounds.startMs),
    history,
    previousSummary: summary(0),
    currentSummary: summary(3),
    delegates: [
      { address: '0xB', name: null, expiryMs: null, isWebClient: false },
      { address: '0xA', name: 'web', expiryMs: bounds.endMs + 2 * DAY + 5 * HOUR, isWebClient: true },
      { address: '0xC', name: 'old', expiryMs: bounds.startMs, isWebClient: false },
    ],
    now: bounds.endMs,
    ...overrides,
  };
}

describe('buildReportModel', () => {
  it('measures the day from the state at its start, taking the baseline from history when needed', () => {
    const model = buildReportModel(input());
    expect(model.period).toEqual(bounds);
    expect(model.period.endMs - model.period.startMs).toBe(23 * HOUR);
    expect(model.day).toMatchObject({ startAt: bounds.startMs - HOUR, equityStart: 11_000, equityEnd: 20_650, pnl: -350, netFlows: 10_000, deposits: 10_000, withdrawals: 0 });
    // -550 on 11,000, then +200 on 20,450: the deposit neither helps nor hurts the return
    expect(model.day?.returnPct).toBeCloseTo((0.95 * (1 + 200 / 20_450) - 1) * 100, 10);
  });

  it('reports the drawdown of the whole history and when tracking started', () => {
    const model = buildReportModel(input());
    expect(model.drawdown).toEqual(drawdown(history));
    expect(model.drawdown?.peakAt).toBe(bounds.startMs - HOUR);
    expect(model.trackingSince).toBe(history[0]?.timestamp);
  });

  it('lists every summary metric with its meaning and change', () => {
    const model = buildReportModel(input());
    expect(model.metrics.map((m) => m.key).sort()).toEqual([...SUMMARY_FIELDS].sort());
    const winRate = model.metrics.find((m) => m.key === 'winRate')!;
    expect(winRate).toMatchObject({ label: 'Win rate', unit: 'percent', value: summary(3).winRate, delta: 3 });
    expect(winRate.description.length).toBeGreaterThan(10);
  });

  it('has values but no changes for a first report, and neither without a summary', () => {
    expect(buildReportModel(input({ previousSummary: null })).metrics.every((m) => m.delta === null && m.value !== null)).toBe(true);
    expect(buildReportModel(input({ previousSummary: null, currentSummary: null })).metrics.every((m) => m.value === null)).toBe(true);
  });

  it('lists delegates soonest expiry first, with countdowns and kinds', () => {
    const rows = buildReportModel(input()).delegates;
    expect(rows.map((r) => r.address)).toEqual(['0xC', '0xA', '0xB']);
    expect(rows[0]?.expiry).toEqual({ kind: 'expired', agoMs: 23 * HOUR });
    expect(rows[1]).toMatchObject({ kind: 'web-session', expiry: { kind: 'expires', days: 2, hours: 5 } });
    expect(rows[2]).toMatchObject({ kind: 'api-key', expiry: { kind: 'no-expiry' } });
  });

  it('has no day figures when nothing was collected during the day, and no drawdown without history', () => {
    const model = buildReportModel(input({ daySeries: [], history: [] }));
    expect(model.day).toBeNull();
    expect(model.drawdown).toBeNull();
    expect(model.trackingSince).toBeNull();
  });

  it('passes removed delegates through, oldest first', () => {
    const removed = [
      { address: '0xD', name: 'b', removedAt: 20 },
      { address: '0xE', name: null, removedAt: 10 },
    ];
    expect(buildReportModel(input({ removedDelegates: removed })).removedDelegates.map((r) => r.address)).toEqual(['0xE', '0xD']);
  });
});
