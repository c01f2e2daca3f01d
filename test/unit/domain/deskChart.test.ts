import { describe, expect, it } from 'vitest';
import { deskChart } from '../../../functions/domain/deskChart';
import { drawdownCurve } from '../../../functions/domain/drawdown';

const HOUR = 3_600_000;

describe('deskChart', () => {
  it('marks a deposit and a withdrawal where their steps end, and keeps the deepest drawdown when downsampling', () => {
    const series = Array.from({ length: 5_000 }, (_, i) => {
      const pnl = Math.sin(i / 50) * 1_000 - (i === 2_345 ? 30_000 : 0);
      const flow = i >= 1_000 ? 50_000 : 0;
      const out = i >= 4_000 ? -20_000 : 0;
      return { timestamp: i * HOUR, equity: 100_000 + pnl + flow + out, pnl };
    });
    const curve = drawdownCurve(series);
    const chart = deskChart(series, curve, 800);
    expect(chart.stored).toBe(5_000);
    expect(chart.t.length).toBeLessThanOrEqual(803);
    expect(chart.flows.map((f) => [f.t, Math.round(f.amount)])).toEqual([
      [1_000 * HOUR, 50_000],
      [4_000 * HOUR, -20_000],
    ]);
    expect(chart.t).toContain(1_000 * HOUR);
    expect(Math.max(...chart.drawdown)).toBe(Math.max(...curve.map((p) => p.drawdownPct)));
  });
});
