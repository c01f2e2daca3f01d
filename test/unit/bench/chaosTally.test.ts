import { describe, expect, it } from 'vitest';
import { tallyPoints, tallySends } from '../../../bench/chaosTally';
import { percentile } from '../../../bench/stats';

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
    expect(tallySends(baseline, chaos)).toEqual({
      expected: 3,
      missing: 1,
      duplicated: 1,
      extra: 1,
      lateMs: [0, 60],
      unpaired: { missing: [{ occasion: 'b', at: 200 }], extra: [{ occasion: 'd', at: 50 }] },
    });
  });

  it('pairs a re-fired alert whose id a fault moved with the fault-free one of the same occasion, in order, within the tolerance', () => {
    const HOUR = 3_600_000;
    const fired = (stamp: string, at: number, to = 'owner') => ({ key: `drawdown:0xa:10:fired:${stamp}#${to}`, at, occasion: `drawdown:0xa:10:fired#${to}` });
    const baseline = [fired('never', 1 * HOUR), fired('3600000', 5 * HOUR), fired('18000000', 9 * HOUR), fired('never', 1 * HOUR, 'desk')];
    // The first fire came 20 minutes late (an outage), so the re-fires carry other ids; the third never came; the desk's is there.
    const chaos = [fired('never', 1 * HOUR + 1_200_000), fired('4800000', 5 * HOUR), fired('never', 1 * HOUR, 'desk'), fired('x', 20 * HOUR)];
    expect(tallySends(baseline, chaos, 2 * HOUR)).toEqual({
      expected: 4,
      missing: 1,
      duplicated: 0,
      extra: 1,
      lateMs: [0, 0, 1_200_000],
      unpaired: { missing: [{ occasion: 'drawdown:0xa:10:fired#owner', at: 9 * HOUR }], extra: [{ occasion: 'drawdown:0xa:10:fired#owner', at: 20 * HOUR }] },
    });
    // Matched by key alone (no tolerance, no occasions), the moved ids would count as missing and extra.
    const byKey = tallySends(
      baseline.map(({ key, at }) => ({ key, at })),
      chaos.map(({ key, at }) => ({ key, at })),
    );
    expect([byKey.missing, byKey.extra]).toEqual([2, 2]);
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
