import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chainBurst, sharedRateLimiter, TokenBucket } from '../../../functions/shared/rateLimiter';
import { chainRateBudget, worstCaseBurst } from '../../../infra/config/chainRateBudget';

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

  it('a chain bucket starts empty and bursts its whole-second allowance: instances bursting together stay within the total', async () => {
    expect(chainBurst(8.5)).toBe(8);
    expect(chainBurst(0.5)).toBe(1);
    const time = fakeTime();
    const bucket = new TokenBucket({ ratePerSecond: 8.5, burst: chainBurst(8.5), initialTokens: 0, now: time.now, sleep: time.sleep });
    expect(bucket.waitTimeMs()).toBeGreaterThan(0);
    // At the default budget (20 rps: collect 2 x 8.5, signer 2 x 1, reports 1), every bucket full at once sends at most 20.
    const budget = chainRateBudget(20, 2, 2, { signerConcurrency: 2, reportRps: 1 });
    expect(worstCaseBurst(budget)).toBeLessThanOrEqual(budget.totalRps);
    fc.assert(
      fc.property(fc.integer({ min: 10, max: 500 }), fc.integer({ min: 2, max: 4 }), (total, collect) => {
        const b = chainRateBudget(total, collect, 2, { signerConcurrency: 2, reportRps: 1 });
        return worstCaseBurst(b) <= b.totalRps;
      }),
    );
  });
});
