import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localDayBounds } from '../../../functions/domain/localTime';
import { reportInput, storedReportInput, type ChainWindow, type ListedDelegate, type PreviousReport } from '../../../functions/domain/composeReport';
import type { SummaryReadings } from '../../../functions/domain/reportModel';
import { planFor, type ReportSpan } from '../../../functions/domain/reportPlan';
import { periodWindows, reportWindows, type ReportWindow } from '../../../functions/domain/reportWindows';
import type { TrackedAccount } from '../../../functions/domain/account';

const ZONE = 'Europe/Berlin';
const ACCOUNT = { address: `0x${'b'.repeat(40)}` as const, label: 'desk', timezone: ZONE, interval: '1h' as const };
const COVERED = '2026-03-28';
const DAY = { localDate: COVERED, ...localDayBounds(COVERED, ZONE), previousReportAt: Date.parse('2026-03-28T07:00:00Z') };
const NOW = Date.parse('2026-03-29T07:05:00Z');
const DAY_SPAN: ReportSpan = { kind: 'day', day: DAY, windows: reportWindows(COVERED, ZONE) };
const WEEK_SPAN: ReportSpan = { kind: 'summary', windows: periodWindows('week', '2026-03-29', ZONE) };

/** A stand-in for a summary read by the unit rules: the builder passes readings through, so identity tells which one it took. */
const readings = (name: string): SummaryReadings => ({ name }) as unknown as SummaryReadings;

const answered = (window: ReportWindow, name: string): ChainWindow => ({
  window,
  raw: null,
  summary: readings(name),
  series: [
    { timestamp: window.fromMs, equity: 1_000, pnl: 0 },
    { timestamp: window.toMs, equity: 1_010, pnl: 10 },
  ],
});

const HISTORY = [
  { timestamp: DAY.startMs - 3_600_000, equity: 990, pnl: -10 },
  { timestamp: DAY.startMs + 3_600_000, equity: 1_000, pnl: 0 },
  { timestamp: DAY.endMs + 60_000, equity: 1_005, pnl: 5 },
];

describe('reportInput, a daily report', () => {
  it('shows each window the chain answered, compared with the previous report of the same window and sampling only', () => {
    const [day, week, month] = DAY_SPAN.windows as [ReportWindow, ReportWindow, ReportWindow];
    const previous: PreviousReport = {
      coveredDate: '2026-03-27',
      windows: [
        { key: 'day', interval: day.interval, summary: readings('previous day') },
        // Asked at another sampling (before the one-sampling rule): not compared.
        { key: '7d', interval: '5m', summary: readings('previous 7d at 5m') },
        { key: '30d', interval: month.interval, summary: readings('previous 30d') },
      ],
    };
    const chain = { kind: 'chain' as const, windows: [answered(day, 'day'), answered(week, '7d'), answered(month, '30d')] };
    const input = reportInput(ACCOUNT, DAY_SPAN, { history: HISTORY, delegates: [], previous, chain }, NOW);

    expect(input.windows.map((w) => [w.window.key, w.summary, w.previous])).toEqual([
      ['day', readings('day'), readings('previous day')],
      ['7d', readings('7d'), null],
      ['30d', readings('30d'), readings('previous 30d')],
    ]);
    expect(input.day).toEqual({ localDate: COVERED, startMs: DAY.startMs, endMs: DAY.endMs });
    expect(input.source).toBeUndefined();
    expect(input.history).toBe(HISTORY);
  });

  it('once the chain is given up, is the stored-data input: curves from the store, metrics from the previous report, the day missing', () => {
    const previous: PreviousReport = {
      coveredDate: '2026-03-27',
      windows: DAY_SPAN.windows.map((w) => ({ key: w.key, interval: w.interval, summary: readings(`previous ${w.key}`) })),
    };
    const reads = { history: HISTORY, delegates: [], previous, chain: { kind: 'stored' as const, chainFailedAt: NOW - 1_000 } };
    const input = reportInput(ACCOUNT, DAY_SPAN, reads, NOW);

    expect(input).toEqual(storedReportInput(ACCOUNT, DAY, HISTORY, { delegates: [], previous, now: NOW, chainFailedAt: NOW - 1_000 }));
    expect(input.windows.map((w) => [w.window.key, w.summary, w.previous])).toEqual([
      ['day', null, null],
      ['7d', readings('previous 7d'), null],
      ['30d', readings('previous 30d'), null],
    ]);
    expect(input.source).toEqual({ kind: 'stored', chainFailedAt: NOW - 1_000, storedAsOf: DAY.endMs + 60_000, metricsFrom: '2026-03-27' });
  });
});

describe('reportInput, a summary', () => {
  it('shows its window with the changes against the window before it', () => {
    const { current, previous } = WEEK_SPAN.kind === 'summary' ? WEEK_SPAN.windows : (undefined as never);
    const chain = { kind: 'chain' as const, windows: [answered(current, 'week'), answered(previous, 'week before')] };
    const input = reportInput(ACCOUNT, WEEK_SPAN, { history: HISTORY, delegates: [], previous: null, chain }, NOW);

    expect(input.windows).toEqual([{ window: current, summary: readings('week'), series: chain.windows[0]?.series, previous: readings('week before') }]);
    expect(input.day).toEqual({ localDate: '2026-03-28', startMs: current.fromMs, endMs: current.toMs });
    expect(input.source).toBeUndefined();
  });

  it('once the chain is given up, shows its stored curves alone: no metrics, no changes', () => {
    const { current } = WEEK_SPAN.kind === 'summary' ? WEEK_SPAN.windows : (undefined as never);
    const input = reportInput(ACCOUNT, WEEK_SPAN, { history: HISTORY, delegates: [], previous: null, chain: { kind: 'stored', chainFailedAt: NOW } }, NOW);

    expect(input.windows).toHaveLength(1);
    expect(input.windows[0]).toMatchObject({ window: current, summary: null, previous: null });
    expect(input.windows[0]?.series.every((p) => p.timestamp >= current.fromMs && p.timestamp <= current.toMs)).toBe(true);
    expect(input.source).toEqual({ kind: 'stored', chainFailedAt: NOW, storedAsOf: DAY.endMs + 60_000, metricsFrom: null });
  });
});

describe('reportInput, properties', () => {
  const delegate = fc.record({
    delegate: fc.string({ minLength: 4, maxLength: 8 }),
    name: fc.option(fc.string({ maxLength: 6 }), { nil: null }),
    expiryMs: fc.option(fc.nat(), { nil: null }),
    isWebClient: fc.boolean(),
    removedAt: fc.option(fc.integer({ min: DAY.startMs - 86_400_000, max: NOW + 86_400_000 }), { nil: null }),
  });

  it('lists a delegate only while listed, and as removed only when removed after the previous report and by now', () => {
    fc.assert(
      fc.property(fc.array(delegate, { maxLength: 12 }), fc.boolean(), (delegates: ListedDelegate[], fromChain) => {
        const chain = fromChain
          ? { kind: 'chain' as const, windows: DAY_SPAN.windows.map((w) => answered(w, w.key)) }
          : { kind: 'stored' as const, chainFailedAt: NOW };
        const input = reportInput(ACCOUNT, DAY_SPAN, { history: HISTORY, delegates, previous: null, chain }, NOW);
        expect(input.delegates).toHaveLength(delegates.filter((d) => d.removedAt === null).length);
        const since = DAY.previousReportAt;
        expect((input.removedDelegates ?? []).map((d) => d.removedAt)).toEqual(
          delegates.flatMap((d) => (d.removedAt !== null && d.removedAt > since && d.removedAt <= NOW ? [d.removedAt] : [])),
        );
      }),
    );
  });

  it('from stored data, every window shows only the stored points inside it, and none is lost', () => {
    const point = fc.record({
      timestamp: fc.integer({ min: DAY.startMs - 40 * 86_400_000, max: DAY.endMs + 86_400_000 }),
      equity: fc.nat(),
      pnl: fc.integer(),
    });
    fc.assert(
      fc.property(fc.array(point, { maxLength: 40 }), (points) => {
        const history = [...points].sort((a, b) => a.timestamp - b.timestamp);
        const input = storedReportInput(ACCOUNT, DAY, history, { delegates: [], previous: null, now: NOW, chainFailedAt: NOW });
        for (const { window, series } of input.windows) {
          expect(series).toEqual(history.filter((p) => p.timestamp >= window.fromMs && p.timestamp <= window.toMs));
        }
      }),
    );
  });
});

describe('planFor carries every window its report reads', () => {
  const account: TrackedAccount = {
    ...ACCOUNT,
    reportAt: '08:00',
    nextReportAt: Date.parse('2026-03-29T06:00:00Z'),
  } as TrackedAccount;

  it('a daily report: its covered day and that day’s three windows', () => {
    const plan = planFor(account, { kind: 'scheduled', reportDate: '2026-03-29' }, NOW);
    if (plan.kind !== 'send') throw new Error('expected a plan that sends');
    expect(plan.covers).toEqual({ kind: 'day', day: plan.period, windows: reportWindows(COVERED, ZONE) });
  });

  it('a summary: its window and the one before it', () => {
    const plan = planFor(account, { kind: 'summary', period: 'week', reportDate: '2026-03-29' }, NOW);
    if (plan.kind !== 'send') throw new Error('expected a plan that sends');
    expect(plan.covers).toEqual(WEEK_SPAN);
  });
});
