import { describe, expect, it } from 'vitest';
import { sharedRateLimiter, TokenBucket } from '../../functions/chain/tokenBucket';

/** A clock that only moves when told to; `sleep` records the wait and returns at once. */
function fakeTime() {
  let now = 0;
  const waits: number[] = [];
  return {
    waits,
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
    sleep: async (ms: number, signal?: AbortSignal) => {
      signal?.throwIfAborted();
      waits.push(ms);
    },
  };
}

describe('TokenBucket', () => {
  it('lets a burst through, then spaces requests at the rate, in call order', async () => {
    const time = fakeTime();
    const bucket = new TokenBucket({ ratePerSecond: 5, burst: 3, now: time.now, sleep: time.sleep });
    await Promise.all([bucket.take(), bucket.take(), bucket.take()]);
    expect(time.waits).toEqual([]);
    await Promise.all([bucket.take(), bucket.take(), bucket.take()]);
    expect(time.waits).toEqual([200, 400, 600]);
  });

  it('refills with elapsed time, never beyond the burst', async () => {
    const time = fakeTime();
    const bucket = new TokenBucket({ ratePerSecond: 10, burst: 2, now: time.now, sleep: time.sleep });
    await bucket.take();
    await bucket.take();
    expect(bucket.waitTimeMs()).toBe(100);
    time.advance(50);
    expect(bucket.waitTimeMs()).toBeCloseTo(50, 9);
    time.advance(10_000);
    await bucket.take();
    await bucket.take();
    expect(time.waits).toEqual([]);
    expect(bucket.waitTimeMs()).toBe(100);
  });

  it('defaults the burst to the rate', async () => {
    const time = fakeTime();
    const bucket = new TokenBucket({ ratePerSecond: 4, now: time.now, sleep: time.sleep });
    for (let i = 0; i < 4; i += 1) await bucket.take();
    expect(time.waits).toEqual([]);
    await bucket.take();
    expect(time.waits).toEqual([250]);
  });

  it('gives the token back when a wait is aborted', async () => {
    const time = fakeTime();
    const bucket = new TokenBucket({ ratePerSecond: 1, burst: 1, now: time.now, sleep: time.sleep });
    await bucket.take();
    const aborted = AbortSignal.abort(new Error('stop'));
    await expect(bucket.take(aborted)).rejects.toThrow('stop');
    expect(bucket.waitTimeMs()).toBe(1000);
  });

  it('is shared per rate across the process', () => {
    expect(sharedRateLimiter(7)).toBe(sharedRateLimiter(7));
    expect(sharedRateLimiter(7)).not.toBe(sharedRateLimiter(8));
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses a rate of %s', (rate) => {
    expect(() => new TokenBucket({ ratePerSecond: rate })).toThrow(RangeError);
  });
});
