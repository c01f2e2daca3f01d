import { describe, expect, it } from 'vitest';
import { percentile, tallyPoints, tallySends } from '../../../bench/chaosTally';

describe('chaos tally', () => {
  it('counts missing, duplicated, extra and lateness against the fault-free run', () => {
    const baseline = [
      { key: 'a', at: 100 },
      { key: 'b', at: 200 },
      { key: 'c', at: 300 },
    ];
    const chaos = [
      { key: 'a', at: 160 },
      { key: 'a', at: 900 },
      { key: 'c', at: 300 },
      { key: 'd', at: 50 },
    ];
    expect(tallySends(baseline, chaos)).toEqual({ expected: 3, missing: 1, duplicated: 1, extra: 1, lateMs: [0, 60] });
  });

  it('counts lost and repeated curve points per account', () => {
    const baseline = new Map([
      ['x', [1, 2, 3]],
      ['y', [5]],
    ]);
    const chaos = new Map([['x', [1, 3, 3, 4]]]);
    expect(tallyPoints(baseline, chaos)).toEqual({ expected: 4, lost: 2, duplicated: 1 });
  });

  it('takes the nearest-rank percentile', () => {
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 99)).toBe(4);
    expect(percentile([], 50)).toBeNaN();
  });
});
