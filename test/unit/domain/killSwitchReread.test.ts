import { describe, expect, it } from 'vitest';
import { drawdown } from '../../../functions/domain/drawdown';
import { REREAD_MINUTES, rereadDrawdown, rereadWindows } from '../../../functions/domain/killSwitchReread';
import type { SeriesPoint } from '../../../functions/domain/series';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.UTC(2030, 0, 7);

/** An hourly series: equity 1000 with trading PnL moving it, `pnls[i]` at hour i. */
function hourly(pnls: readonly number[]): SeriesPoint[] {
  return pnls.map((pnl, i) => ({ timestamp: T0 + i * HOUR, equity: 1000 + pnl, pnl }));
}

/** The re-read's minutes around `at` (or up to it), each with the PnL `pnlOf` gives for its offset. */
function minutes(at: number, pnlOf: (offsetMinutes: number) => number, around = true): SeriesPoint[] {
  const out: SeriesPoint[] = [];
  for (let m = -REREAD_MINUTES; m <= (around ? REREAD_MINUTES : 0); m++) out.push({ timestamp: at + m * MINUTE, equity: 1000 + pnlOf(m), pnl: pnlOf(m) });
  return out;
}

describe('rereadDrawdown (the kill switch re-reads peak and trough at 1m)', () => {
  it('confirms a loss whose peak and trough the minutes agree with', () => {
    const series = hourly([0, 10, 20, -330, -335]);
    const measured = drawdown(series)!;
    expect(measured.currentPct).toBeGreaterThan(30);
    const verdict = rereadDrawdown(
      series,
      measured.peakAt,
      { peak: minutes(measured.peakAt, () => 20), trough: minutes(measured.asOf, () => -335, false) },
      30,
    );
    expect(verdict).toMatchObject({ kind: 'confirmed', peak: { pnl: 20, samples: 11 }, trough: { pnl: -335, samples: 6 } });
    if (verdict.kind !== 'unreadable') expect(verdict.drawdownPct).toBeCloseTo(measured.currentPct, 6);
  });

  it('refutes a one-sample spike that set the peak: the minutes around it outvote it', () => {
    // A +800 gain sampled at hour 2 only, gone a minute later.
    const series = hourly([0, 10, 810, 10, 5]);
    const measured = drawdown(series)!;
    expect(measured.peakAt).toBe(T0 + 2 * HOUR);
    expect(measured.currentPct).toBeGreaterThan(30);
    const verdict = rereadDrawdown(
      series,
      measured.peakAt,
      { peak: minutes(measured.peakAt, (m) => (m === 0 ? 810 : 10)), trough: minutes(measured.asOf, () => 5, false) },
      30,
    );
    expect(verdict.kind).toBe('refuted');
    if (verdict.kind !== 'unreadable') {
      expect(verdict.peak.pnl).toBe(10);
      expect(verdict.drawdownPct).toBeLessThan(1);
    }
  });

  it('takes the side of a doubt that adds no loss: lower median at the peak, upper at the trough', () => {
    const series = hourly([0, 100, -300]);
    const peakAt = T0 + HOUR;
    const verdict = rereadDrawdown(
      series,
      peakAt,
      {
        peak: [90, 100, 95, 110].map((pnl, i) => ({ timestamp: peakAt + i * MINUTE, equity: 1000 + pnl, pnl })),
        trough: [-300, -280].map((pnl, i) => ({ timestamp: T0 + 2 * HOUR - i * MINUTE, equity: 1000 + pnl, pnl })),
      },
      30,
    );
    expect(verdict).toMatchObject({ peak: { pnl: 95 }, trough: { pnl: -280 } });
  });

  it('is unreadable without samples, or when the peak is not a point of the series', () => {
    const series = hourly([0, 10, -400]);
    expect(rereadDrawdown(series, T0 + HOUR, { peak: [], trough: minutes(T0 + 2 * HOUR, () => -400, false) }, 30)).toEqual({ kind: 'unreadable' });
    expect(rereadDrawdown(series, T0 + HOUR + 1, { peak: minutes(T0 + HOUR, () => 10), trough: minutes(T0 + 2 * HOUR, () => -400, false) }, 30)).toEqual({
      kind: 'unreadable',
    });
  });

  it('windows: around the peak (never past the trough), and the minutes up to the trough', () => {
    const peakAt = T0 + HOUR;
    expect(rereadWindows(peakAt, T0 + 2 * HOUR)).toEqual({
      peak: { from: peakAt - REREAD_MINUTES * MINUTE, to: peakAt + REREAD_MINUTES * MINUTE },
      trough: { from: T0 + 2 * HOUR - REREAD_MINUTES * MINUTE, to: T0 + 2 * HOUR },
    });
    expect(rereadWindows(peakAt, peakAt + MINUTE).peak.to).toBe(peakAt + MINUTE);
  });
});
