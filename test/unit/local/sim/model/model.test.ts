import { describe, expect, it } from 'vitest';
import { eventWindow } from '../../../../../local/sim/model/events';
import { LOG_RETURN_OFFSET, NEXT_OFFSET, generateDay, initialSnapshot } from '../../../../../local/sim/model/generateDay';
import { LruCache } from '../../../../../local/sim/model/lruCache';
import { ModelAccount } from '../../../../../local/sim/model/modelAccount';
import { drawParams } from '../../../../../local/sim/model/params';
import { S, STRIDE } from '../../../../../local/sim/model/state';
import { walkHour } from '../../../../../local/sim/model/walkHour';
import { createRng } from '../../../../../local/sim/prng';

const DAY_INDEX = 20_000;
const params = drawParams(createRng(99), 99, 10_000, { tradesPerDay: 0, hourlyFundingRate: 0 });

describe('the hourly pass and the minute walk agree', () => {
  it('ends every hour where its minute walk ends', () => {
    const block = generateDay(params, DAY_INDEX, initialSnapshot(params), []);
    for (let h = 0; h < 24; h += 1) {
      const start = block.subarray(h * STRIDE, (h + 1) * STRIDE);
      const end = h < 23 ? block.subarray((h + 1) * STRIDE, (h + 2) * STRIDE) : block.subarray(NEXT_OFFSET, NEXT_OFFSET + STRIDE);
      const walked = walkHour(params, DAY_INDEX * 24 + h, block[LOG_RETURN_OFFSET + h] ?? 0, start, eventWindow([], 0, 0));
      expect(walked[S.equity]).toBeCloseTo(end[S.equity] ?? 0, 6);
      expect(walked[S.pnl]).toBeCloseTo(end[S.pnl] ?? 0, 6);
    }
  });

  it('is deterministic and differs between days', () => {
    const a = generateDay(params, DAY_INDEX, initialSnapshot(params), []);
    expect(generateDay(params, DAY_INDEX, initialSnapshot(params), [])).toEqual(a);
    expect(generateDay(params, DAY_INDEX + 1, initialSnapshot(params), [])).not.toEqual(a);
  });
});

describe('model accounts', () => {
  const caches = () => ({ days: new LruCache<Float64Array>(8), hours: new LruCache<Float64Array>(8) });
  const now = (DAY_INDEX + 3) * 86_400_000 + 30 * 60_000;

  it('give the same snapshots whatever the cache holds and in whatever order they are read', () => {
    const a = new ModelAccount('a', params, DAY_INDEX, caches());
    const b = new ModelAccount('b', params, DAY_INDEX, { days: new LruCache<Float64Array>(1), hours: new LruCache<Float64Array>(1) });
    const times = [3 * 86_400_000 + 17 * 60_000, 86_400_000 + 7_200_000, 2 * 86_400_000, 0].map((t) => DAY_INDEX * 86_400_000 + t);
    const first = times.map((t) => Array.from(a.snapshotAt(t, now)));
    const second = [...times]
      .reverse()
      .map((t) => Array.from(b.snapshotAt(t, now)))
      .reverse();
    expect(second).toEqual(first);
  });

  it('refuse events that would rewrite a snapshot up to now', () => {
    const account = new ModelAccount('c', params, DAY_INDEX, caches());
    const minuteNow = Math.floor(now / 60_000);
    expect(() => account.addEvent({ kind: 'flow', minute: minuteNow, amount: 1 }, now)).toThrow(RangeError);
    expect(() => account.addEvent({ kind: 'drift', startMinute: minuteNow - 1, endMinute: minuteNow + 5, totalPct: -5 }, now)).toThrow(RangeError);
    const before = Array.from(account.snapshotAt(minuteNow * 60_000, now));
    account.addEvent({ kind: 'flow', minute: minuteNow + 1, amount: 500 }, now);
    expect(Array.from(account.snapshotAt(minuteNow * 60_000, now))).toEqual(before);
    expect((account.snapshotAt((minuteNow + 1) * 60_000, now)[S.netFlows] ?? 0) - (before[S.netFlows] ?? 0)).toBe(500);
  });
});
