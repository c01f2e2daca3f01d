import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drawdown, drawdownCurve } from '../../../functions/domain/drawdown';
import type { SeriesPoint } from '../../../functions/domain/series';

const HOUR = 3_600_000;
const series = (rows: ReadonlyArray<readonly [equity: number, pnl: number]>): SeriesPoint[] =>
  rows.map(([equity, pnl], i) => ({ timestamp: i * HOUR, equity, pnl }));

/** Drawdown computed the textbook way, quadratic and independent of the implementation. */
function referenceCurve(s: readonly SeriesPoint[]): number[] {
  const index = [1];
  for (let t = 1; t < s.length; t++) {
    const r = (s[t]!.pnl - s[t - 1]!.pnl) / s[t - 1]!.equity;
    index.push(index[t - 1]! * (1 + r));
  }
  return index.map((v, t) => (1 - v / Math.max(...index.slice(0, t + 1))) * 100);
}

const money = fc.double({ min: 1, max: 1e7, noNaN: true });
const pnlValue = fc.double({ min: -1e6, max: 1e6, noNaN: true });
const anySeries = fc.array(fc.tuple(money, pnlValue), { minLength: 1, maxLength: 60 }).map((rows) => series(rows));

describe('drawdown: examples', () => {
  it('measures from the peak in percent and dollars', () => {
    const result = drawdown(
      series([
        [1000, 0],
        [1100, 100],
        [880, -120],
      ]),
    );
    expect(result?.currentPct).toBeCloseTo(20, 10);
    expect(result?.maxPct).toBeCloseTo(20, 10);
    expect(result).toMatchObject({ peakAt: HOUR, peakEquity: 1100, peakPnl: 100, dollarDrawdown: 220, pnlSincePeak: -220 });
    expect(result).toMatchObject({ maxPeakAt: HOUR, maxTroughAt: 2 * HOUR, maxDollarDrawdown: 220, asOf: 2 * HOUR });
  });

  it('a 50% withdrawal produces no drawdown', () => {
    const result = drawdown(
      series([
        [10_000, 0],
        [10_050, 50],
        [5_025, 50],
        [5_030, 55],
      ]),
    );
    expect(result?.currentPct).toBe(0);
    expect(result?.maxPct).toBe(0);
    expect(result?.dollarDrawdown).toBe(0);
  });

  it('a deposit does not clear a real drawdown, even when dollars recover', () => {
    const before = drawdown(
      series([
        [10_000, 0],
        [8_000, -2_000],
      ]),
    );
    expect(before?.currentPct).toBeCloseTo(20, 10);
    const afterDeposit = drawdown(
      series([
        [10_000, 0],
        [8_000, -2_000],
        [108_000, -2_000],
      ]),
    );
    expect(afterDeposit?.currentPct).toBe(before?.currentPct);
    // Winning back the 2,000 on the larger balance is a 1.85% gain, not a recovery of 25%.
    const afterGain = drawdown(
      series([
        [10_000, 0],
        [8_000, -2_000],
        [108_000, -2_000],
        [110_000, 0],
      ]),
    );
    expect(afterGain?.currentPct).toBeCloseTo((1 - 0.8 * (1 + 2_000 / 108_000)) * 100, 10);
    expect(afterGain?.currentPct).toBeGreaterThan(18);
    expect(afterGain?.dollarDrawdown).toBe(0);
    expect(afterGain?.pnlSincePeak).toBe(0);
  });

  it('counts a deposit made in the same step as a loss as capital at risk', () => {
    // 100 in the account, 1,000 deposited and 200 lost within one interval: -200 / 1,100, not -200%.
    const result = drawdown(
      series([
        [100, 0],
        [900, -200],
      ]),
    );
    expect(result?.currentPct).toBeCloseTo((200 / 1_100) * 100, 10);
  });

  it('treats steps from a non-positive equity as no return', () => {
    // The loss of 10 from an empty account has no capital behind it; the later 100 of 1,000 does.
    const result = drawdown(
      series([
        [0, 0],
        [-10, -10],
        [1_000, -10],
        [900, -110],
      ]),
    );
    expect(result?.currentPct).toBeCloseTo(10, 10);
    expect(result?.maxPct).toBeCloseTo(10, 10);
  });

  it('a first deposit into an empty account is the capital of that step', () => {
    expect(
      drawdown(
        series([
          [0, 0],
          [900, -100],
        ]),
      )?.currentPct,
    ).toBeCloseTo(10, 10);
  });

  it('a total loss is a 100% drawdown that stays', () => {
    const result = drawdown(
      series([
        [1_000, 0],
        [-50, -1_050],
        [5_000, -1_050],
        [5_500, -550],
      ]),
    );
    expect(result?.currentPct).toBe(100);
    expect(result?.maxPct).toBe(100);
  });

  it('is null for no points and zero for one', () => {
    expect(drawdown([])).toBeNull();
    expect(drawdown(series([[500, 3]]))).toMatchObject({ currentPct: 0, maxPct: 0, peakAt: 0, peakEquity: 500 });
  });

  it('gives the curve point by point, ending at the current drawdown', () => {
    const s = series([
      [1000, 0],
      [900, -100],
      [1000, 0],
      [800, -200],
    ]);
    const curve = drawdownCurve(s);
    expect(curve.map((p) => p.timestamp)).toEqual(s.map((p) => p.timestamp));
    expect(curve.at(-1)?.drawdownPct).toBe(drawdown(s)?.currentPct);
    expect(curve[1]?.drawdownPct).toBeCloseTo(10, 10);
  });
});

describe('drawdown: properties', () => {
  const runs = { numRuns: 200 };

  it('(a) if PnL never changes, drawdown is 0 whatever the equity flows', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e7, max: 1e7, noNaN: true }), { minLength: 1, maxLength: 60 }), pnlValue, (equities, pnl) => {
        const result = drawdown(series(equities.map((e) => [e, pnl] as const)));
        expect(result?.currentPct).toBe(0);
        expect(result?.maxPct).toBe(0);
      }),
      runs,
    );
  });

  it('(b) scaling every equity and PnL value by k > 0 leaves it unchanged', () => {
    fc.assert(
      fc.property(anySeries, fc.double({ min: 1e-3, max: 1e3, noNaN: true }), (s, k) => {
        const scaled = s.map((p) => ({ ...p, equity: p.equity * k, pnl: p.pnl * k }));
        const a = drawdown(s)!;
        const b = drawdown(scaled)!;
        expect(b.currentPct).toBeCloseTo(a.currentPct, 6);
        expect(b.maxPct).toBeCloseTo(a.maxPct, 6);
      }),
      runs,
    );
  });

  it('(c) current and max drawdown are within [0, 100] and never NaN', () => {
    const wild = fc.double({ min: -1e9, max: 1e9, noNaN: true });
    fc.assert(
      fc.property(fc.array(fc.tuple(wild, wild), { minLength: 1, maxLength: 60 }), (rows) => {
        const result = drawdown(series(rows))!;
        for (const v of [result.currentPct, result.maxPct]) {
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(100);
        }
        expect(result.maxPct).toBeGreaterThanOrEqual(result.currentPct);
      }),
      runs,
    );
  });

  it('(d) a pure deposit or withdrawal step (PnL unchanged) never changes the drawdown at that step', () => {
    const row = fc.record({ equity: money, pnl: pnlValue, flowOnly: fc.boolean() });
    fc.assert(
      fc.property(fc.array(row, { minLength: 2, maxLength: 60 }), (rows) => {
        const s: SeriesPoint[] = [];
        rows.forEach((r, i) => s.push({ timestamp: i, equity: r.equity, pnl: r.flowOnly && i > 0 ? s[i - 1]!.pnl : r.pnl }));
        const curve = drawdownCurve(s);
        for (let t = 1; t < s.length; t++) {
          if (s[t]!.pnl === s[t - 1]!.pnl) expect(curve[t]!.drawdownPct).toBe(curve[t - 1]!.drawdownPct);
        }
      }),
      runs,
    );
  });

  it('(e) if PnL never falls, there is no drawdown whatever the flows', () => {
    const step = fc.record({ gain: fc.double({ min: 0, max: 1e5, noNaN: true }), equity: money });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
        let pnl = 0;
        const result = drawdown(steps.map((st, i) => ({ timestamp: i, equity: st.equity, pnl: (pnl += st.gain) })));
        expect(result?.maxPct).toBe(0);
      }),
      runs,
    );
  });

  it('matches the textbook formula when flows never coincide with a PnL change', () => {
    const step = fc.record({ kind: fc.constantFrom('trade', 'flow'), amount: fc.double({ min: -0.5, max: 0.5, noNaN: true }) });
    fc.assert(
      fc.property(money, fc.array(step, { minLength: 1, maxLength: 60 }), (start, steps) => {
        const s: SeriesPoint[] = [{ timestamp: 0, equity: start, pnl: 0 }];
        for (const st of steps) {
          const prev = s[s.length - 1]!;
          const change = prev.equity * st.amount;
          s.push({ timestamp: prev.timestamp + 1, equity: prev.equity + change, pnl: st.kind === 'trade' ? prev.pnl + change : prev.pnl });
        }
        const expected = referenceCurve(s);
        drawdownCurve(s).forEach((p, t) => expect(p.drawdownPct).toBeCloseTo(expected[t]!, 6));
        expect(drawdown(s)?.maxPct).toBeCloseTo(Math.max(...expected), 6);
      }),
      runs,
    );
  });
});
