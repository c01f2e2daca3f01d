import { describe, expect, it } from 'vitest';
import { emptyRollup, foldPoints } from '../../../functions/domain/drawdownRollup';
import { rollupFromState, rollupToState } from '../../../functions/store/drawdownRollupItem';

const HOUR = 3_600_000;
const rollup = foldPoints(
  emptyRollup('1h', 0),
  [1000, 1010, 990, 1020, 1005].map((equity, i) => ({ timestamp: i * 7 * HOUR, equity, pnl: equity - 1000 })),
);

describe('drawdown rollup item', () => {
  it('stores and reads back the same rollup', () => {
    const state = rollupToState(rollup);
    expect(state).toMatchObject({ v: 1, interval: '1h', index: [0, 1], maxAt: [21 * HOUR, 4 * HOUR] });
    expect(rollupFromState(JSON.parse(JSON.stringify(state)))).toEqual(rollup);
  });

  it('a state that is not a valid rollup reads as none', () => {
    const state = rollupToState(rollup)!;
    expect(rollupFromState({ ...state, max: 'garbage' })).toBeNull();
    expect(rollupFromState({ ...state, end: [0] })).toBeNull();
    expect(rollupFromState({ ...state, unitMs: HOUR })).toBeNull();
    expect(rollupFromState({ ...state, v: 2 })).toBeNull();
    expect(rollupFromState({ ...state, index: [1, 0] })).toBeNull();
    expect(rollupFromState(undefined)).toBeNull();
  });

  it('a rollup without points, or with a number DynamoDB cannot store exactly, is not written', () => {
    expect(rollupToState(emptyRollup('1h', 0))).toBeNull();
    expect(rollupToState({ ...rollup, last: { ...rollup.last!, g: 5e-324 } })).toBeNull();
    expect(rollupToState({ ...rollup, last: { ...rollup.last!, equity: 1e300 } })).toBeNull();
  });
});
