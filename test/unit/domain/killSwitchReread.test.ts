import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drawdown } from '../../../functions/domain/drawdown';
import { REREAD_MERGE_MINUTES, rereadDrawdown, rereadWindows } from '../../../functions/domain/killSwitchReread';
import type { SeriesPoint } from '../../../functions/domain/series';
import { MINUTE, PATH_START, minutePath, runPolls } from '../../support/killSwitch/killSwitchPolls';

const HOUR = 60 * MINUTE;
const at = (minute: number) => PATH_START + minute * MINUTE;
const flat = (minutes: number, equity = 1000) => Array.from({ length: minutes }, () => equity);
/** A loss of `pct` % compounding over `minutes` minutes (as the simulator's drift), from `equity`. */
const falling = (equity: number, pct: number, minutes: number) => Array.from({ length: minutes }, (_, i) => equity * (1 - pct / 100) ** ((i + 1) / minutes));

describe('rereadDrawdown: the level must hold two 1m samples, from a peak the account held', () => {
  it('the reported case: a 1m account losing 30% over two minutes is refuted at its first minute past 20%, confirmed at the next', () => {
    // Flat at 1000 for 30 minutes, then 836.7 (16.3%) at minute 30 and 700 (30%) from minute 31 on.
    const path = minutePath([...flat(30), ...falling(1000, 30, 2), ...flat(10, 700)]);
    const upTo = (minute: number) => path.slice(0, minute + 1);
    const firstPast = 31;
    expect(drawdown(upTo(firstPast))!.currentPct).toBeGreaterThanOrEqual(20);
    expect(drawdown(upTo(firstPast - 1))!.currentPct).toBeLessThan(20);

    const early = rereadDrawdown(upTo(firstPast), { peakAt: at(29), troughAt: at(firstPast) }, upTo(firstPast).slice(-5), 20);
    expect(early).toMatchObject({ kind: 'refuted', minutes: [{ at: at(30) }, { at: at(31) }] });
    const next = rereadDrawdown(upTo(firstPast + 1), { peakAt: at(29), troughAt: at(firstPast + 1) }, upTo(firstPast + 1).slice(-6), 20);
    expect(next).toMatchObject({ kind: 'confirmed', peak: { at: at(29), pnl: 0 }, minutes: [{ at: at(31) }, { at: at(32) }] });
    if (next.kind === 'confirmed') expect(next.drawdownPct).toBeCloseTo(30, 6);

    // Through collect's pure steps, polled each minute: the poll 30 s after minute 32 fires, 90 s after the chain first showed minute 31.
    expect(runPolls(path, { levelPct: 20, intervalMinutes: 1 }).firedAt).toBe(firstPast + 1);
  });

  it('refutes a one-sample spike up at the peak: the peak counts only as high as a neighbouring minute', () => {
    const equities = [...flat(20), 1800, ...flat(10)];
    const path = minutePath(equities);
    const verdict = rereadDrawdown(path, { peakAt: at(20), troughAt: at(30) }, path, 30);
    expect(drawdown(path)!.currentPct).toBeGreaterThan(40);
    expect(verdict).toMatchObject({ kind: 'refuted', drawdownPct: 0, peak: { at: at(20), equity: 1000, samples: 3 } });
    expect(runPolls(path, { levelPct: 30, intervalMinutes: 1 }).firedAt).toBeNull();
  });

  it('refutes a one-sample print down at the trough, or at the minute before it', () => {
    const low = minutePath([...flat(20), 500, 1000]);
    expect(rereadDrawdown(low.slice(0, 21), { peakAt: at(19), troughAt: at(20) }, low, 30).kind).toBe('refuted');
    expect(rereadDrawdown(low, { peakAt: at(19), troughAt: at(21) }, low, 30).kind).toBe('refuted');
    expect(runPolls(low, { levelPct: 30, intervalMinutes: 1 }).firedAt).toBeNull();
  });

  it('keeps a real peak: a flat minute beside it, or a slow decline after a jump, is the peak held', () => {
    const plateau = minutePath([...flat(10, 900), 1000, 1000, ...falling(1000, 40, 3), ...flat(5, 600)]);
    expect(rereadDrawdown(plateau, { peakAt: at(11), troughAt: at(plateau.length - 1) }, plateau, 39)).toMatchObject({
      kind: 'confirmed',
      peak: { equity: 1000 },
    });
    // A jump to 1000, then 999: the peak is held at 999 (the higher neighbour), not at the 900 before the jump.
    const jump = minutePath([...flat(10, 900), 1000, 999, 550, 550]);
    const verdict = rereadDrawdown(jump, { peakAt: at(10), troughAt: at(13) }, jump, 44.9);
    expect(verdict).toMatchObject({ kind: 'confirmed', peak: { equity: 999 } });
  });

  it('never counts a withdrawal as a loss, between the two minutes or before them', () => {
    // 600 of 1000 withdrawn at minute 21 (equity falls, PnL does not), nothing else.
    const path = minutePath([...flat(21), ...flat(10, 400)]).map((p, i) => ({ ...p, pnl: i >= 21 ? 0 : p.pnl }));
    expect(rereadDrawdown(path.slice(0, 22), { peakAt: at(20), troughAt: at(21) }, path, 10)).toMatchObject({ kind: 'refuted', drawdownPct: 0 });
    expect(rereadDrawdown(path.slice(0, 25), { peakAt: at(20), troughAt: at(24) }, path, 10)).toMatchObject({ kind: 'refuted', drawdownPct: 0 });

    // An hourly account: within the hour, 600 of 1000 withdrawn and 60 lost (6% at the start of the
    // hour, 15% if the money left first). The minute before the trough counts at 6%, so a print down
    // at the trough's own minute cannot confirm 10%.
    const hour = [
      { timestamp: at(0), equity: 1000, pnl: 0 },
      { timestamp: at(60), equity: 200, pnl: -200 },
    ];
    const minutes = [hour[0]!, { timestamp: at(1), equity: 1000, pnl: 0 }, { timestamp: at(59), equity: 340, pnl: -60 }, hour[1]!];
    expect(rereadDrawdown(hour, { peakAt: at(0), troughAt: at(60) }, minutes, 10)).toMatchObject({ kind: 'refuted', minutes: [{ drawdownPct: 6 }, {}] });
  });

  it('measures an hourly account from its series, with the two minutes up to its newest point', () => {
    // A 1h account: hourly points at 1000; the loss of 35% lands in the hour's last minute, then holds.
    const minutes = minutePath([...flat(119), ...flat(70, 650)]);
    const hourly = (upTo: number) => minutes.filter((_, i) => i % 60 === 0 && i <= upTo);
    expect(rereadDrawdown(hourly(120), { peakAt: at(60), troughAt: at(120) }, minutes, 30)).toMatchObject({
      kind: 'confirmed',
      minutes: [{ at: at(119) }, { at: at(120) }],
    });
    // The same loss one minute later (only the hour's own sample shows it): refuted now; the next hour confirms it.
    const late = minutePath([...flat(120), ...flat(70, 650)]);
    expect(rereadDrawdown(hourly(120), { peakAt: at(60), troughAt: at(120) }, late, 30).kind).toBe('refuted');
    expect(runPolls(late, { levelPct: 30, intervalMinutes: 60, firstPoll: 60 }).firedAt).toBe(180);
  });

  it('replaces the peak with its placed step dropped, and measures the rest of the series as placed', () => {
    const path: SeriesPoint[] = minutePath([...flat(5), 1300, 1000, 1000, 600, 600]);
    // A placed step into the spike (its return as collection placed it) must not survive the peak's new value.
    path[5] = { ...path[5]!, step: { r: 0.3, placement: 'refined', fromTs: at(4) } };
    path[6] = { ...path[6]!, step: { r: -0.23, placement: 'refined', fromTs: at(5) } };
    const verdict = rereadDrawdown(path, { peakAt: at(5), troughAt: at(9) }, path, 35);
    expect(verdict).toMatchObject({ kind: 'confirmed', peak: { equity: 1000 } });
    if (verdict.kind === 'confirmed') expect(verdict.drawdownPct).toBeCloseTo(40, 6);
  });

  it('is unreadable without the two minutes of the trough, or without a minute beside the peak', () => {
    const path = minutePath([...flat(10), 600, 600]);
    expect(rereadDrawdown(path, { peakAt: at(9), troughAt: at(11) }, [path[11]!], 30)).toEqual({ kind: 'unreadable' });
    expect(rereadDrawdown(path, { peakAt: at(5), troughAt: at(11) }, [path[5]!, path[10]!, path[11]!], 30)).toEqual({ kind: 'unreadable' });
  });

  it('windows: one read for a fast loss, two for a peak further back, never past the trough', () => {
    expect(rereadWindows(at(10), at(12))).toEqual([{ from: at(9), to: at(12) }]);
    expect(rereadWindows(at(10), at(10 + REREAD_MERGE_MINUTES + 2))).toEqual([{ from: at(9), to: at(10 + REREAD_MERGE_MINUTES + 2) }]);
    expect(rereadWindows(at(0), at(0) + 5 * HOUR)).toEqual([
      { from: at(-1), to: at(1) },
      { from: at(0) + 5 * HOUR - MINUTE, to: at(0) + 5 * HOUR },
    ]);
    expect(rereadWindows(at(10), at(11))).toEqual([{ from: at(9), to: at(11) }]);
  });
});

/** Minute returns of a calm account: at most ±0.2% a minute. */
const calmReturns = (min: number, max: number) => fc.array(fc.double({ min: -0.002, max: 0.002, noNaN: true }), { minLength: min, maxLength: max });
const compound = (start: number, returns: readonly number[]) => {
  const out = [start];
  for (const r of returns) out.push(out[out.length - 1]! * (1 + r));
  return out;
};
const INTERVALS = [1, 5, 15, 60] as const;

describe("decideKillSwitch over generated paths (collect's one decision, polled at the account interval)", () => {
  it('every sustained loss past the level fires within one poll interval of the chain first showing it, and not before two minutes show it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...INTERVALS),
        fc.integer({ min: 5, max: 60 }),
        fc.integer({ min: 1, max: 30 }),
        fc.double({ min: 1, max: 30, noNaN: true }),
        calmReturns(0, 90),
        fc.double({ min: 1_000, max: 5_000_000, noNaN: true }),
        fc.constantFrom('now' as const, 'wait' as const),
        (k, levelPct, lossMinutes, extraPct, before, capital, confirm) => {
          // A calm walk below a peak the account then holds (at least an interval and two minutes), then the loss, then a noisy trough.
          const walk = compound(capital, before);
          const peak = Math.max(...walk) * 1.01;
          const depth = Math.min(95, levelPct + extraPct);
          const trough = peak * (1 - depth / 100);
          const noise = before.slice(0, 3 * k + 4).map((r) => trough * (1 + r / 4));
          const equities = [...walk, ...flat(k + 2, peak), ...falling(peak, depth, lossMinutes), ...noise, ...flat(3 * k + 4 - noise.length, trough)];
          const path = minutePath(equities);
          const shown = equities.findIndex((e) => (1 - e / peak) * 100 >= levelPct);
          const outcome = runPolls(path, { levelPct, intervalMinutes: k, confirm });
          const message = `first past at minute ${shown}; ${outcome.log.slice(-4).join('; ')}`;
          expect(outcome.firedAt, message).not.toBeNull();
          expect(outcome.firedAt!, message).toBeGreaterThanOrEqual(shown + 1);
          // One interval after the minute it showed (the poll runs 30 s into the next minute); `wait` adds its interval.
          expect(outcome.firedAt!, message).toBeLessThanOrEqual(shown + k + (confirm === 'wait' ? k : 0));
          if (confirm === 'wait') expect(outcome.firedAt! - outcome.firstCrossedAt!, message).toBeGreaterThanOrEqual(k);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a one-sample spike (up, or down, anywhere) on a path that never lost the level never fires', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...INTERVALS),
        calmReturns(30, 200),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: -1, max: 1 }),
        fc.oneof(fc.double({ min: 1.01, max: 4, noNaN: true }), fc.double({ min: 0.01, max: 0.99, noNaN: true })),
        fc.double({ min: 0.5, max: 40, noNaN: true }),
        (k, returns, where, offset, factor, marginPct) => {
          const equities = compound(10_000, returns);
          const truth = minutePath(equities);
          // The level sits above the deepest drawdown of the true path.
          const levelPct = Math.min(99, Math.max(...drawdownsOf(truth)) + marginPct);
          // The spike falls on a point of the account's series or beside one (where the interval's points are).
          const s = Math.min(equities.length - 1, Math.max(1, Math.round((where * (equities.length - 1)) / k) * k + offset));
          const spiked = truth.map((p, i) => (i === s ? { ...p, equity: p.equity * factor, pnl: p.pnl + p.equity * (factor - 1) } : p));
          const outcome = runPolls(spiked, { levelPct, intervalMinutes: k });
          expect(outcome.firedAt, `spike ×${factor} at minute ${s}, level ${levelPct}; ${outcome.log.slice(-4).join('; ')}`).toBeNull();
        },
      ),
      { numRuns: 400 },
    );
  });

  it('withdrawals, however large, never fire it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...INTERVALS),
        calmReturns(30, 150),
        fc.array(fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), share: fc.double({ min: 0.05, max: 0.95, noNaN: true }) }), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.double({ min: 0.5, max: 30, noNaN: true }),
        (k, returns, withdrawals, marginPct) => {
          // Trading returns on the capital left after the minute's withdrawal (taken at the start of its minute).
          const takenAt = new Map(withdrawals.map((w) => [1 + Math.floor(w.at * (returns.length - 1)), w.share]));
          const path: SeriesPoint[] = [{ timestamp: PATH_START, equity: 10_000, pnl: 0 }];
          let index = 0;
          let peakIndex = 0;
          let deepestPct = 0;
          returns.forEach((r, i) => {
            const prev = path[path.length - 1]!;
            const capital = prev.equity * (1 - (takenAt.get(i + 1) ?? 0));
            path.push({ timestamp: PATH_START + (i + 1) * MINUTE, equity: capital * (1 + r), pnl: prev.pnl + capital * r });
            index += Math.log1p(r);
            peakIndex = Math.max(peakIndex, index);
            deepestPct = Math.max(deepestPct, -Math.expm1(index - peakIndex) * 100);
          });
          const levelPct = Math.min(99, deepestPct + marginPct);
          const outcome = runPolls(path, { levelPct, intervalMinutes: k });
          expect(outcome.firedAt, `level ${levelPct}; ${outcome.log.slice(-4).join('; ')}`).toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a loss that arrives in a catch-up batch fires at the poll that brings it, even if it recovered within the batch', () => {
    // A 1m account; the chain shows nothing new from minute 40 to 49, then everything at once.
    const lagging = (minute: number) => (minute >= 40 && minute < 50 ? 39 : minute);
    const held = minutePath([...flat(42), ...falling(1000, 35, 2), ...flat(20, 650)]);
    expect(runPolls(held, { levelPct: 30, intervalMinutes: 1, shows: lagging })).toMatchObject({ firedAt: 50 });
    const recovered = minutePath([...flat(42), ...falling(1000, 35, 2), 650, 650, ...flat(20, 900)]);
    expect(runPolls(recovered, { levelPct: 30, intervalMinutes: 1, shows: lagging })).toMatchObject({ firedAt: 50 });
    // `wait`: the batch already shows the level held an interval (minutes 43 to 45), so it fires at once too.
    expect(runPolls(recovered, { levelPct: 30, intervalMinutes: 1, shows: lagging, confirm: 'wait' })).toMatchObject({ firedAt: 50 });
    // One minute past the level inside the batch is a print, not a loss.
    const print = minutePath([...flat(43), 600, ...flat(20)]);
    expect(runPolls(print, { levelPct: 30, intervalMinutes: 1, shows: lagging }).firedAt).toBeNull();
  });
});

/** The drawdown at every minute of a path (percent), by the same flow-adjusted rule. */
function drawdownsOf(path: readonly SeriesPoint[]): number[] {
  return path.map((_, i) => drawdown(path.slice(0, i + 1))!.currentPct);
}
