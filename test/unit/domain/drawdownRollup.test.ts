import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drawdown } from '../../../functions/domain/drawdown';
import {
  advanceRollup,
  foldPoints,
  emptyRollup,
  rollupDrawdown,
  rollupOfSeries,
  ROLLUP_UNIT_MS,
  usableRollup,
  type DrawdownRollup,
} from '../../../functions/domain/drawdownRollup';
import { INTERVAL_MS, type Interval } from '../../../functions/domain/interval';
import { pointsBetween, type SeriesPoint } from '../../../functions/domain/series';

/** One step of a generated account: a trading return, a cash flow, a skipped interval or a total loss. */
const stepArb = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('trade' as const), r: fc.double({ min: -0.2, max: 0.2, noNaN: true }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('flow' as const), f: fc.double({ min: -0.6, max: 1.5, noNaN: true }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('gap' as const), n: fc.integer({ min: 1, max: 30 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'loss' as const }) },
);

type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never;

/** Points one interval apart (gaps skip some), equity and PnL moved by the steps. */
function buildSeries(interval: Interval, start: number, steps: readonly Step[]): SeriesPoint[] {
  const ms = INTERVAL_MS[interval];
  let equity = 10_000;
  let pnl = 0;
  let at = start;
  const out: SeriesPoint[] = [{ timestamp: at, equity, pnl }];
  for (const step of steps) {
    at += ms;
    if (step.kind === 'gap') {
      at += step.n * ms;
    } else if (step.kind === 'trade') {
      const change = Math.max(equity, 1) * step.r;
      equity += change;
      pnl += change;
    } else if (step.kind === 'flow') {
      // Withdrawals keep the account above zero; a deposit after a total loss restarts it.
      equity = Math.max(0, equity) + Math.max(-0.99 * Math.max(equity, 0), Math.max(equity, 1_000) * step.f);
    } else {
      const change = -(Math.max(equity, 0) + 50);
      equity += change;
      pnl += change;
    }
    out.push({ timestamp: at, equity, pnl });
  }
  return out;
}

/**
 * Polls the series every interval the way collection does: a rollup built from the first
 * window's exact series, then each poll folds what is new, seals closed units, and measures the
 * window (handing over the straddling unit's points when asked). Rebuilds at random polls, as a
 * full evaluation does. Returns the rollup's and the exact drawdown at each poll.
 */
function pollAll(interval: Interval, series: readonly SeriesPoint[], windowMs: number, rebuildAt: ReadonlySet<number>) {
  const ms = INTERVAL_MS[interval];
  const first = series[0]!.timestamp;
  const endAt = series[series.length - 1]!.timestamp + 3 * ms;
  const results: { now: number; rollup: number | null; exact: number | null }[] = [];
  let stored: DrawdownRollup | null = null;
  for (let now = first, poll = 0; now <= endAt; now += ms, poll++) {
    const from = Math.max(0, now - windowMs);
    const window = pointsBetween(series, from, now);
    const exact = drawdown(window)?.currentPct ?? null;
    if (!stored || rebuildAt.has(poll)) {
      stored = rollupOfSeries(interval, from, window);
      results.push({ now, rollup: exact, exact });
      continue;
    }
    const after = stored.last?.timestamp ?? stored.coveredFrom - 1;
    const { sealed, current } = advanceRollup(stored, pointsBetween(series, after + 1, now), from);
    stored = sealed;
    let outcome = rollupDrawdown(current, from);
    if (outcome.kind === 'needs-points') outcome = rollupDrawdown(current, from, pointsBetween(series, outcome.from, outcome.to));
    if (outcome.kind === 'needs-points') throw new Error('asked twice');
    results.push({ now, rollup: outcome.kind === 'drawdown' ? outcome.currentPct : null, exact });
  }
  return results;
}

describe('drawdown rollup', () => {
  it('equals the exact drawdown of the window at every poll: flows, losses, gaps, total losses, slides over unit boundaries', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Interval>('1h', '4h', '1d', '1m'),
        fc.array(stepArb, { minLength: 1, maxLength: 160 }),
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 0, max: 400 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 200 }), { maxLength: 4 }),
        (interval, steps, windowIntervals, offsetIntervals, rebuilds) => {
          const ms = INTERVAL_MS[interval];
          const start = 1_900_000_000_000 - (1_900_000_000_000 % ms) + offsetIntervals * ms;
          const series = buildSeries(interval, start, steps);
          for (const { now, rollup, exact } of pollAll(interval, series, windowIntervals * ms, new Set(rebuilds))) {
            if (exact === null) {
              expect(rollup, `at ${now}`).toBeNull();
            } else {
              expect(rollup, `at ${now}`).not.toBeNull();
              expect(Math.abs(rollup! - exact), `at ${now}: rollup ${rollup}, exact ${exact}`).toBeLessThan(1e-9);
            }
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a withdrawal is not a drawdown and a total loss is 100% while its step is in the window', () => {
    const hour = INTERVAL_MS['1h'];
    const series: SeriesPoint[] = [
      { timestamp: 0, equity: 1000, pnl: 0 },
      { timestamp: hour, equity: 500, pnl: 0 },
      { timestamp: 2 * hour, equity: -10, pnl: -510 },
      { timestamp: 3 * hour, equity: 990, pnl: -510 },
      { timestamp: 4 * hour, equity: 1089, pnl: -411 },
    ];
    const rollup = foldPoints(emptyRollup('1h', 0), series);
    expect(rollupDrawdown(rollup, 0)).toMatchObject({ kind: 'drawdown', currentPct: 100 });
    expect(rollupDrawdown(rollup, hour)).toMatchObject({ kind: 'drawdown', currentPct: 100 });
    expect(rollupDrawdown(rollup, 2 * hour)).toMatchObject({ kind: 'drawdown', currentPct: 0 });
    expect(rollupDrawdown(foldPoints(emptyRollup('1h', 0), series.slice(0, 2)), 0)).toMatchObject({ kind: 'drawdown', currentPct: 0 });
  });

  it('asks for the straddling unit only when its maximum is before the window', () => {
    const unit = ROLLUP_UNIT_MS['4h'];
    const at = (i: number) => i * INTERVAL_MS['4h'];
    // Unit 0 peaks at its first point, then falls; unit 1 holds the last points.
    const series: SeriesPoint[] = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => ({ timestamp: at(i), equity: 1000 - 10 * i, pnl: -10 * i }));
    const rollup = foldPoints(emptyRollup('4h', 0), series);
    expect(rollupDrawdown(rollup, 0).kind).toBe('drawdown');
    expect(rollupDrawdown(rollup, at(2))).toEqual({ kind: 'needs-points', from: at(2), to: unit - 1 });
    const outcome = rollupDrawdown(rollup, at(2), pointsBetween(series, at(2), unit - 1));
    expect(outcome.kind === 'drawdown' && outcome.currentPct).toBeCloseTo(drawdown(pointsBetween(series, at(2), at(7)))!.currentPct, 9);
    expect(() => rollupDrawdown(rollupOfSeries('4h', at(3), series), at(2))).toThrow(RangeError);
  });

  it('a stored rollup is used only when it covers the window, is of its interval, ends before the points a poll wrote, and the store outlives the window', () => {
    const hour = INTERVAL_MS['1h'];
    const series: SeriesPoint[] = [0, 1, 2, 3].map((i) => ({ timestamp: 10 * hour + i * hour, equity: 1000 + i, pnl: i }));
    const stored = foldPoints(emptyRollup('1h', 10 * hour), series);
    const window = { interval: '1h' as const, from: 10 * hour };
    expect(usableRollup(stored, window)).toEqual(stored);
    expect(usableRollup(stored, { ...window, from: 11 * hour, writtenFromMs: 14 * hour, pointsOutliveWindow: true })).toEqual(stored);
    expect(usableRollup(null, window)).toBeNull();
    expect(usableRollup(emptyRollup('1h', 10 * hour), window)).toBeNull();
    expect(usableRollup(stored, { ...window, interval: '4h' })).toBeNull();
    expect(usableRollup(stored, { ...window, from: 9 * hour })).toBeNull();
    expect(usableRollup(stored, { ...window, writtenFromMs: 13 * hour })).toBeNull();
    expect(usableRollup(stored, { ...window, writtenFromMs: 12 * hour })).toBeNull();
    expect(usableRollup(stored, { ...window, pointsOutliveWindow: false })).toBeNull();
  });

  it('usableRollup: whenever it answers a rollup, the rollup measures the window exactly as the full series does', () => {
    fc.assert(
      fc.property(
        fc.array(stepArb, { minLength: 1, maxLength: 80 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        fc.option(fc.integer({ min: 0, max: 120 }), { nil: null }),
        (steps, coveredAt, fromAt, writtenAt) => {
          const ms = INTERVAL_MS['1h'];
          const series = buildSeries('1h', 0, steps);
          const stored = rollupOfSeries('1h', coveredAt * ms, pointsBetween(series, coveredAt * ms, Number.MAX_SAFE_INTEGER));
          const from = fromAt * ms;
          const usable = usableRollup(stored, { interval: '1h', from, writtenFromMs: writtenAt === null ? null : writtenAt * ms });
          if (usable === null) return;
          expect(usable.coveredFrom).toBeLessThanOrEqual(from);
          if (writtenAt !== null) expect(usable.last.timestamp).toBeLessThan(writtenAt * ms);
          let outcome = rollupDrawdown(usable, from);
          if (outcome.kind === 'needs-points') outcome = rollupDrawdown(usable, from, pointsBetween(series, outcome.from, outcome.to));
          const exact = drawdown(pointsBetween(series, from, usable.last.timestamp));
          if (outcome.kind === 'drawdown') expect(Math.abs(outcome.currentPct - exact!.currentPct)).toBeLessThan(1e-9);
          else expect(outcome.kind === 'empty' && exact === null).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
