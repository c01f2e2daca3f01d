import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drawdown } from '../../../functions/domain/drawdown';
import { foldPoints, emptyRollup, rollupDrawdown } from '../../../functions/domain/drawdownRollup';
import type { SeriesPoint } from '../../../functions/domain/series';
import { chainedReturn, isMarkedStep, refineStep, stepReturn } from '../../../functions/domain/stepReturn';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The issue's account within one hour: 110k, loses 13.75k over minutes 1-30, 200k is deposited
 * in minute `depositAt` (alone in its minute at 31), then it loses 13.75k more by minute 60.
 */
function issueExample(depositAt = 31): SeriesPoint[] {
  const out: SeriesPoint[] = [];
  let equity = 110_000;
  let pnl = 0;
  for (let m = 0; m <= 60; m++) {
    if (m > 0 && m !== 31) {
      const loss = 13_750 / (m <= 30 ? 30 : 29);
      equity -= loss;
      pnl -= loss;
    }
    if (m === depositAt) equity += 200_000;
    out.push({ timestamp: m * MINUTE, equity, pnl });
  }
  return out;
}

describe("placing a step's flow: the issue's example", () => {
  const minutes = issueExample();
  const prev = minutes[0]!;
  const cur = minutes[60]!;

  it('refined at 1m, the hour reads 16.6% (time-weighted), not 8.9%', () => {
    const step = refineStep(prev, cur, minutes);
    expect(step?.placement).toBe('refined');
    expect(step!.r * 100).toBeCloseTo(-16.56, 2);
    const refined = drawdown([prev, { ...cur, step: step! }]);
    expect(refined?.currentPct).toBeCloseTo(16.56, 2);
    expect(refined?.favourableCurrentPct).toBe(refined?.currentPct);
  });

  it('unplaced, the hour takes the lower placement (deposit at the end: 25%), marked, so a 10% level is reached', () => {
    const coarse = drawdown([prev, cur]);
    expect(coarse?.currentPct).toBeCloseTo(25, 6);
    expect(coarse!.currentPct).toBeGreaterThan(10);
    expect(isMarkedStep(prev, cur)).toBe(true);
    // The favourable placement (deposit at the start) is the old 8.9%: a 10% crossing rests on the marked step alone.
    expect(coarse?.favourableCurrentPct).toBeCloseTo((27_500 / 310_000) * 100, 6);
  });

  it('a refinement whose minutes do not span the step, or disagree with its points, places nothing', () => {
    expect(refineStep(prev, cur, minutes.slice(1))).toBeNull();
    expect(refineStep(prev, cur, minutes.slice(0, -1))).toBeNull();
    expect(
      refineStep(
        prev,
        cur,
        minutes.map((p, i) => (i === 60 ? { ...p, equity: p.equity + 5 } : p)),
      ),
    ).toBeNull();
  });

  it('a flow within one minute that holds a PnL change stays conservative (marked), with its favourable return kept', () => {
    const sameMinute = issueExample(30);
    const step = refineStep(prev, sameMinute[60]!, sameMinute);
    expect(step?.placement).toBe('conservative');
    expect(step!.r).toBeLessThan(step!.favourable!);
    const result = drawdown([prev, { ...sameMinute[60]!, step: step! }])!;
    expect(result.favourableCurrentPct).toBeLessThan(result.currentPct);
    // Within a minute the two placements differ by that minute's loss alone: both read about 16.6%.
    expect(result.currentPct - result.favourableCurrentPct).toBeLessThan(0.5);
    expect(result.currentPct).toBeCloseTo(16.6, 0);
  });

  it('a withdrawal of everything is placed at the end: no return, no 100% drawdown', () => {
    const a = { timestamp: 0, equity: 1_000, pnl: 0 };
    expect(stepReturn(a, { timestamp: HOUR, equity: 0, pnl: 0 })).toBe(0);
    // 100 lost, then the remaining 900 withdrawn: -10%, not -100%.
    expect(stepReturn(a, { timestamp: HOUR, equity: 0, pnl: -100 })).toBeCloseTo(-0.1, 12);
    expect(drawdown([a, { timestamp: HOUR, equity: 0, pnl: -100 }])?.currentPct).toBeCloseTo(10, 10);
  });
});

const money = fc.double({ min: 100, max: 1e7, noNaN: true });

/** A step from `equity` with a trading return `r` and a flow of `f` times the equity, in either order. */
const flowStep = fc.record({
  equity: money,
  r: fc.double({ min: -0.9, max: 0.9, noNaN: true }),
  f: fc.double({ min: -0.9, max: 5, noNaN: true }).filter((f) => Math.abs(f) > 1e-3),
  flowFirst: fc.boolean(),
});

describe("placing a step's flow: properties", () => {
  const runs = { numRuns: 300 };

  it("for a step that holds a flow, the unplaced return is never above either placement's", () => {
    fc.assert(
      fc.property(flowStep, fc.double({ min: -0.5, max: 0.5, noNaN: true }), ({ equity, f }, r) => {
        const flow = equity * f;
        const pnlChange = equity * r;
        const prev = { timestamp: 0, equity, pnl: 0 };
        const cur = { timestamp: HOUR, equity: equity + flow + pnlChange, pnl: pnlChange };
        const atStart = pnlChange / (equity + flow);
        const atEnd = pnlChange / equity;
        fc.pre(atStart > -1 && atEnd > -1 && cur.equity > 0);
        const unplaced = stepReturn(prev, cur);
        expect(unplaced).toBeLessThanOrEqual(atStart + 1e-12);
        expect(unplaced).toBeLessThanOrEqual(atEnd + 1e-12);
      }),
      runs,
    );
  });

  it('a refined step gives what a poll at 1m would have', () => {
    const minute = fc.record({
      r: fc.double({ min: -0.05, max: 0.05, noNaN: true }),
      flow: fc.oneof(fc.constant(0), fc.double({ min: -0.5, max: 2, noNaN: true })),
    });
    fc.assert(
      fc.property(money, fc.array(fc.array(minute, { minLength: 1, maxLength: 60 }), { minLength: 1, maxLength: 6 }), (start, hours) => {
        // Per minute: a trade or a flow, never both in one minute (a flow lands on a minute).
        const minutes: SeriesPoint[] = [{ timestamp: 0, equity: start, pnl: 0 }];
        const coarse: SeriesPoint[] = [minutes[0]!];
        for (const hour of hours) {
          for (const m of hour) {
            const prev = minutes[minutes.length - 1]!;
            const trade = m.flow === 0 ? prev.equity * m.r : 0;
            const flow = Math.max(-0.9 * prev.equity, prev.equity * m.flow);
            minutes.push({ timestamp: prev.timestamp + MINUTE, equity: prev.equity + trade + flow, pnl: prev.pnl + trade });
          }
          const prev = coarse[coarse.length - 1]!;
          const last = minutes[minutes.length - 1]!;
          const step = refineStep(prev, last, minutes);
          expect(step).not.toBeNull();
          expect(step!.placement).toBe('refined');
          coarse.push({ ...last, step: step! });
        }
        const at1m = chainedReturn(minutes);
        expect(Math.abs(chainedReturn(coarse) - at1m)).toBeLessThan(1e-9 * Math.max(1, Math.abs(at1m)));
        expect(coarse.some((p, i) => i > 0 && isMarkedStep(coarse[i - 1]!, p))).toBe(false);
      }),
      runs,
    );
  });

  it('a withdrawal with no PnL change never moves the drawdown, placed or not, and is never marked', () => {
    const trade = fc.double({ min: -0.3, max: 0.3, noNaN: true });
    fc.assert(
      fc.property(
        money,
        fc.array(trade, { minLength: 1, maxLength: 30 }),
        fc.nat(),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (start, trades, at, share) => {
          const s: SeriesPoint[] = [{ timestamp: 0, equity: start, pnl: 0 }];
          for (const r of trades) {
            const prev = s[s.length - 1]!;
            s.push({ timestamp: prev.timestamp + HOUR, equity: prev.equity * (1 + r), pnl: prev.pnl + prev.equity * r });
          }
          const i = at % s.length;
          const before = drawdown(s.slice(0, i + 1))!;
          const prev = s[i]!;
          // `share` 1 withdraws everything.
          const withdrawn = { timestamp: prev.timestamp + 1, equity: prev.equity * (1 - share), pnl: prev.pnl };
          expect(isMarkedStep(prev, withdrawn)).toBe(false);
          const minutes = [prev, { timestamp: prev.timestamp + 0.5, equity: withdrawn.equity, pnl: prev.pnl }, withdrawn];
          for (const point of [withdrawn, { ...withdrawn, step: refineStep(prev, withdrawn, minutes)! }]) {
            const after = drawdown([...s.slice(0, i + 1), point])!;
            expect(after.currentPct).toBe(before.currentPct);
            expect(after.maxPct).toBe(before.maxPct);
            expect(after.favourableCurrentPct).toBe(before.currentPct);
          }
        },
      ),
      runs,
    );
  });

  it('the rollup of a series with placed steps equals its exact drawdown', () => {
    fc.assert(
      fc.property(fc.array(flowStep, { minLength: 1, maxLength: 40 }), fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }), (steps, refine) => {
        const s: SeriesPoint[] = [{ timestamp: 0, equity: 10_000, pnl: 0 }];
        steps.forEach(({ r, f, flowFirst }, k) => {
          const prev = s[s.length - 1]!;
          const base = flowFirst ? prev.equity * (1 + f) : prev.equity;
          const pnlChange = Math.max(base, 1) * r;
          const cur = { timestamp: prev.timestamp + HOUR, equity: prev.equity * (1 + f) + pnlChange, pnl: prev.pnl + pnlChange };
          const placed = refine[k] ? refineStep(prev, cur, [prev, { timestamp: prev.timestamp + MINUTE, equity: base, pnl: prev.pnl }, cur]) : null;
          s.push(placed ? { ...cur, step: placed } : cur);
        });
        const exact = drawdown(s)!.currentPct;
        const rolled = rollupDrawdown(foldPoints(emptyRollup('1h', 0), s), 0);
        expect(rolled.kind).toBe('drawdown');
        if (rolled.kind === 'drawdown') expect(Math.abs(rolled.currentPct - exact)).toBeLessThan(1e-9);
      }),
      runs,
    );
  });
});
