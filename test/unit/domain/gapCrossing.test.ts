import { describe, expect, it } from 'vitest';
import { deepestSince, firstReached, shallowestBetween } from '../../../functions/domain/gapCrossing';

const curve = [
  { timestamp: 1, drawdownPct: 6 },
  { timestamp: 2, drawdownPct: 3 },
  { timestamp: 3, drawdownPct: 3 },
  { timestamp: 4, drawdownPct: 8 },
  { timestamp: 5, drawdownPct: 4 },
];

describe('the points one poll brought', () => {
  it('the deepest since a time: the latest of equal depths', () => {
    expect(deepestSince(curve, 2)).toEqual({ timestamp: 4, drawdownPct: 8 });
    expect(deepestSince(curve, 6)).toBeNull();
  });

  it('the shallowest between two times, before the second: the earliest of equal depths', () => {
    expect(shallowestBetween(curve, 1, 4)).toEqual({ timestamp: 2, drawdownPct: 3 });
    expect(shallowestBetween(curve, 1, 2)).toEqual({ timestamp: 1, drawdownPct: 6 });
    expect(shallowestBetween(curve, 5, 5)).toBeNull();
  });

  it('when a level was first reached', () => {
    expect(firstReached(curve, 2, 5)).toBe(4);
    expect(firstReached(curve, 1, 5)).toBe(1);
    expect(firstReached(curve, 1, 9)).toBeNull();
  });
});
