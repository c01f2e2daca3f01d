import { describe, expect, it } from 'vitest';
import { SUMMARY_FIELDS, type SummaryField } from '../../../functions/domain/summaryFields';
import { drawdown } from '../../../functions/domain/drawdown';
import { localDayBounds } from '../../../functions/domain/localTime';
import { buildReportModel, type ReportModelInput, type SummaryReadings, type WindowInput } from '../../../functions/domain/reportModel';
import { reportWindows } from '../../../functions/domain/reportWindows';
import type { SeriesPoint } from '../../../functions/domain/series';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ZONE = 'Europe/Berlin';
const bounds = localDayBounds('2024-03-31', ZONE); // 23 hours
const [dayWindow, weekWindow, monthWindow] = reportWindows('2024-03-31', ZONE) as [WindowInput['window'], WindowInput['window'], WindowInput['window']];
const readings = (shift: number): SummaryReadings =>
  Object.fromEntries(SUMMARY_FIELDS.map((f, i) => [f, { kind: 'number', value: i * 10 + shift }])) as Record<SummaryField, { kind: 'number'; value: number }>;

/** The chain's curves of the report day: the point at its midnight, a deposit, the point at the next midnight. */
const daySeries: SeriesPoint[] = [
  { timestamp: bounds.startMs, equity: 11_000, pnl: 1_000 },
  { timestamp: bounds.startMs + HOUR, equity: 10_450, pnl: 450 },
  { timestamp: bounds.startMs + 2 * HOUR, equity: 20_450, pnl: 450 },
  { timestamp: bounds.endMs, equity: 20_650, pnl: 650 },
];
const monthSeries: SeriesPoint[] = Array.from({ length: 31 }, (_, i) => ({ timestamp: monthWindow.fromMs + i * DAY, equity: 10_000 + i, pnl: i }));
/** Stored points up to now (after the day): the drawdown is as of now. */
const history: SeriesPoint[] = [
  { timestamp: bounds.startMs - DAY, equity: 10_000, pnl: 0 },
  ...daySeries,
  { timestamp: bounds.endMs + 8 * HOUR, equity: 20_000, pnl: 0 },
];

function input(overrides: Partial<ReportModelInput> = {}): ReportModelInput {
  return {
    settings: { address: '0x52908400098527886E0F7030069857D2E4169EE7', label: 'Desk', timezone: ZONE, interval: '1h' },
    day: { localDate: '2024-03-31', ...bounds },
    windows: [
      { window: dayWindow, summary: readings(3), series: daySeries, previous: readings(0) },
      { window: weekWindow, summary: readings(5), series: daySeries, previous: null },
      { window: monthWindow, summary: null, series: [], previous: readings(1) },
    ],
    history,
    delegates: [
      { address: '0xB', name: null, expiryMs: null, isWebClient: false },
      { address: '0xA', name: 'web', expiryMs: bounds.endMs + 2 * DAY + 5 * HOUR, isWebClient: true },
      { address: '0xC', name: 'old', expiryMs: bounds.startMs, isWebClient: false },
    ],
    now: bounds.endMs + 8 * HOUR,
    ...overrides,
  };
}

describe('buildReportModel', () => {
  it("measures the report day from the chain's point at its local midnight to the one at the next", () => {
    const model = buildReportModel(input());
    expect(model.period).toEqual(bounds);
    expect(model.period.endMs - model.period.startMs).toBe(23 * HOUR);
    expect(model.day).toMatchObject({
      startAt: bounds.startMs,
      endAt: bounds.endMs,
      equityStart: 11_000,
      equityEnd: 20_650,
      pnl: -350,
      netFlows: 10_000,
      deposits: 10_000,
      withdrawals: 0,
    });
    // -550 on 11,000, then +200 on 20,450: the deposit neither helps nor hurts the return
    expect(model.day?.returnPct).toBeCloseTo((0.95 * (1 + 200 / 20_450) - 1) * 100, 10);
  });

  it('ignores stored points after the day for the day figures', () => {
    const model = buildReportModel(input());
    expect(model.day?.equityEnd).toBe(20_650);
    expect(model.drawdown).toEqual(drawdown(history));
    expect(model.drawdown?.asOf).toBe(bounds.endMs + 8 * HOUR);
    expect(model.drawdownSince).toBe(history[0]?.timestamp);
  });

  it('states every window and gives each metric a cell per window with its change against the previous report', () => {
    const model = buildReportModel(input());
    expect(model.windows.map((w) => [w.key, w.fromMs, w.toMs, w.compared])).toEqual([
      ['day', bounds.startMs, bounds.endMs, true],
      ['7d', weekWindow.fromMs, bounds.endMs, false],
      ['30d', monthWindow.fromMs, bounds.endMs, true],
    ]);
    expect(model.metrics.map((m) => m.key).sort()).toEqual([...SUMMARY_FIELDS].sort());
    const winRate = model.metrics.find((m) => m.key === 'winRate')!;
    const base = SUMMARY_FIELDS.indexOf('winRate') * 10;
    expect(winRate).toMatchObject({ label: 'Win rate', unit: 'percent' });
    expect(winRate.cells).toEqual([
      { value: base + 3, text: null, delta: 3 },
      { value: base + 5, text: null, delta: null },
      { value: null, text: null, delta: null },
    ]);
  });

  it('shows a value that fits no unit rule as received, with no change', () => {
    const odd = { ...readings(3), returnPct: { kind: 'as-received', text: '0.0123' } } as SummaryReadings;
    const [first, ...rest] = input().windows;
    const model = buildReportModel(input({ windows: [{ ...first!, summary: odd }, ...rest] }));
    expect(model.metrics.find((m) => m.key === 'returnPct')?.cells[0]).toEqual({ value: null, text: '0.0123', delta: null });
  });

  it('charts the report day, and the 30-day window (daily points) for a 1d account', () => {
    expect(buildReportModel(input()).chart).toEqual({ window: 'day', fromMs: bounds.startMs, toMs: bounds.endMs, series: daySeries });
    const daily = buildReportModel(
      input({
        settings: { ...input().settings, interval: '1d' },
        windows: input().windows.map((w) => (w.window.key === '30d' ? { ...w, series: monthSeries } : w)),
      }),
    );
    expect(daily.chart).toMatchObject({ window: '30d', fromMs: monthWindow.fromMs, toMs: bounds.endMs });
    expect(daily.chart.series).toHaveLength(31);
  });

  it('lists delegates soonest expiry first, with countdowns and kinds', () => {
    const rows = buildReportModel(input()).delegates;
    expect(rows.map((r) => r.address)).toEqual(['0xC', '0xA', '0xB']);
    expect(rows[0]?.expiry).toEqual({ kind: 'expired', agoMs: 23 * HOUR + 8 * HOUR });
    expect(rows[1]).toMatchObject({ kind: 'web-session' });
    expect(rows[2]).toMatchObject({ kind: 'api-key', expiry: { kind: 'no-expiry' } });
  });

  it('has no day figures when the chain had no point in the day, and no drawdown without history', () => {
    const model = buildReportModel(input({ windows: input().windows.map((w) => ({ ...w, series: [] })), history: [] }));
    expect(model.day).toBeNull();
    expect(model.drawdown).toBeNull();
    expect(model.drawdownSince).toBeNull();
  });

  it('passes removed delegates through, oldest first', () => {
    const removed = [
      { address: '0xD', name: 'b', removedAt: 20 },
      { address: '0xE', name: null, removedAt: 10 },
    ];
    expect(buildReportModel(input({ removedDelegates: removed })).removedDelegates.map((r) => r.address)).toEqual(['0xE', '0xD']);
  });
});
