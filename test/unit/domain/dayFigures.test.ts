import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayFigures } from '../../../functions/domain/dayFigures';
import type { SeriesPoint } from '../../../functions/domain/series';

const HOUR = 3_600_000;
const START = 24 * HOUR;
const END = 48 * HOUR;
const p = (timestamp: number, equity: number, pnl: number): SeriesPoint => ({ timestamp, equity, pnl });

describe('dayFigures', () => {
  it('measures from the last point before the day to the last point of the day', () => {
    const series = [p(START - 2 * HOUR, 900, -5), p(START - HOUR, 1_000, 0), p(START + HOUR, 1_100, 100), p(END, 1_045, 45), p(END + HOUR, 1, -999)];
    expect(dayFigures(series, START, END)).toEqual({
      startAt: START - HOUR,
      endAt: END,
      equityStart: 1_000,
      equityEnd: 1_045,
      pnl: 45,
      returnPct: expect.closeTo((1.1 * (1 - 55 / 1_100) - 1) * 100, 10) as number,
      netFlows: 0,
      deposits: 0,
      withdrawals: 0,
    });
  });

  it('detects deposits and withdrawals, and the flow-adjusted return ignores them', () => {
    const series = [p(START, 10_000, 0), p(START + HOUR, 5_000, 0), p(START + 2 * HOUR, 5_050, 50), p(START + 3 * HOUR, 7_050, 50)];
    const figures = dayFigures(series, START, END)!;
    expect(figures).toMatchObject({ pnl: 50, netFlows: -3_000, deposits: 2_000, withdrawals: 5_000 });
    expect(figures.returnPct).toBeCloseTo(1, 10);
  });

  it('counts sub-cent differences between the curves as rounding, not flows', () => {
    const figures = dayFigures([p(START, 100, 0), p(START + HOUR, 100.104, 0.1)], START, END)!;
    expect(figures).toMatchObject({ netFlows: 0, deposits: 0, withdrawals: 0 });
  });

  it('starts at the first point of the day when there is none before it', () => {
    expect(dayFigures([p(START + HOUR, 50, 1), p(START + 2 * HOUR, 60, 11)], START, END)).toMatchObject({ startAt: START + HOUR, equityStart: 50, pnl: 10 });
  });

  it('is null when the day has no point', () => {
    expect(dayFigures([p(START - HOUR, 1, 0), p(END + 1, 2, 0)], START, END)).toBeNull();
    expect(dayFigures([], START, END)).toBeNull();
  });

  it('equity change is always PnL plus net flows', () => {
    const row = fc.tuple(fc.double({ min: 1, max: 1e6, noNaN: true }), fc.double({ min: -1e5, max: 1e5, noNaN: true }));
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 30 }), (rows) => {
        const series = rows.map(([e, q], i) => p(START + (i + 1) * 60_000, e, q));
        const f = dayFigures(series, START, END)!;
        expect(f.equityEnd - f.equityStart).toBeCloseTo(f.pnl + f.netFlows, 1);
        expect(f.deposits - f.withdrawals).toBeCloseTo(f.netFlows, 0);
        expect(f.deposits).toBeGreaterThanOrEqual(0);
        expect(f.withdrawals).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 200 },
    );
  });
});
