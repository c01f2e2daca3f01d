import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignCurves } from '../../../functions/domain/series';
import { storedSeries } from '../../../functions/store/storedSeries';
import type { StoredCurvePoint } from '../../../functions/store/storedCurvePoint';

/** The series by definition: the two curves joined on their timestamps (the last of each wins), each step on its timestamp. */
function reference(points: readonly StoredCurvePoint[]) {
  const steps = new Map(points.flatMap((p) => (p.step ? [[p.ts, p.step] as const] : [])));
  return alignCurves(
    points.flatMap((p) => (p.equity === undefined ? [] : [{ timestamp: p.ts, value: p.equity }])),
    points.flatMap((p) => (p.pnl === undefined ? [] : [{ timestamp: p.ts, value: p.pnl }])),
  ).map((p) => (steps.has(p.timestamp) ? { ...p, step: steps.get(p.timestamp)! } : p));
}

const value = fc.option(fc.oneof(fc.double({ noNaN: false }).map(String), fc.constantFrom('1e3', '-0.5', 'abc', '')), { nil: undefined });
const point = fc.record({
  ts: fc.integer({ min: 0, max: 50 }).map((n) => n * 60_000),
  equity: value,
  pnl: value,
  step: fc.option(
    fc.record({ placement: fc.constantFrom('refined' as const, 'conservative' as const), r: fc.double({ noNaN: true, min: -1, max: 1 }), fromTs: fc.nat() }),
    {
      nil: undefined,
    },
  ),
});
const clean = (p: { ts: number; equity: string | undefined; pnl: string | undefined; step: StoredCurvePoint['step'] | undefined }): StoredCurvePoint => ({
  ts: p.ts,
  ...(p.equity === undefined ? {} : { equity: p.equity }),
  ...(p.pnl === undefined ? {} : { pnl: p.pnl }),
  ...(p.step === undefined ? {} : { step: p.step }),
});

describe('storedSeries', () => {
  it('reads points in time order in one pass exactly as the joined curves', () => {
    fc.assert(
      fc.property(fc.uniqueArray(point, { selector: (p) => p.ts, maxLength: 40 }), (raw) => {
        const points = raw.map(clean).sort((a, b) => a.ts - b.ts);
        expect(storedSeries(points)).toEqual(reference(points));
      }),
    );
  });

  it('reads points out of order or repeated as the joined curves (the last of each timestamp wins)', () => {
    fc.assert(
      fc.property(fc.array(point, { maxLength: 40 }), (raw) => {
        const points = raw.map(clean);
        expect(storedSeries(points)).toEqual(reference(points));
      }),
    );
  });

  it('leaves out a point missing either curve or holding a value that is not a finite number', () => {
    const points: StoredCurvePoint[] = [
      { ts: 1, equity: '10', pnl: '1' },
      { ts: 2, equity: '11' },
      { ts: 3, equity: 'Infinity', pnl: '1' },
      { ts: 4, equity: '12', pnl: '2', step: { placement: 'refined', r: 0.01, fromTs: 3 } },
    ];
    expect(storedSeries(points)).toEqual([
      { timestamp: 1, equity: 10, pnl: 1 },
      { timestamp: 4, equity: 12, pnl: 2, step: { placement: 'refined', r: 0.01, fromTs: 3 } },
    ]);
  });
});
