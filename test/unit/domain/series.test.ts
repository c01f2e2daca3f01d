import { describe, expect, it } from 'vitest';
import { alignCurves, pointsBetween } from '../../../functions/domain/series';

describe('alignCurves', () => {
  it('joins on timestamp, sorts, and skips points missing from either curve', () => {
    const equity = [
      { timestamp: 3000, value: '130' },
      { timestamp: 1000, value: '100' },
      { timestamp: 2000, value: '120.5' },
    ];
    const pnl = [
      { timestamp: 1000, value: '0' },
      { timestamp: 3000, value: '-2.25' },
      { timestamp: 4000, value: '9' },
    ];
    expect(alignCurves(equity, pnl)).toEqual([
      { timestamp: 1000, equity: 100, pnl: 0 },
      { timestamp: 3000, equity: 130, pnl: -2.25 },
    ]);
  });

  it('skips values that do not parse to a finite number and keeps the last duplicate', () => {
    const equity = [
      { timestamp: 1, value: '1e999' },
      { timestamp: 2, value: '5' },
      { timestamp: 2, value: '6' },
      { timestamp: 3, value: 'abc' },
    ];
    const pnl = [1, 2, 3].map((timestamp) => ({ timestamp, value: '1' }));
    expect(alignCurves(equity, pnl)).toEqual([{ timestamp: 2, equity: 6, pnl: 1 }]);
  });

  it('returns an empty series when the curves do not overlap', () => {
    expect(alignCurves([{ timestamp: 1, value: '1' }], [{ timestamp: 2, value: '1' }])).toEqual([]);
  });
});

describe('pointsBetween', () => {
  it('is inclusive at both ends', () => {
    const s = [1, 2, 3, 4].map((timestamp) => ({ timestamp, equity: 1, pnl: 0 }));
    expect(pointsBetween(s, 2, 3).map((p) => p.timestamp)).toEqual([2, 3]);
  });
});
