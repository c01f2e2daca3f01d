import { describe, expect, it } from 'vitest';
import { backoff, fullJitterDelay } from '../../../functions/shared/backoff';

describe('fullJitterDelay', () => {
  it('draws uniformly below an exponentially growing, capped ceiling', () => {
    const opts = (r: number) => ({ baseDelayMs: 100, maxDelayMs: 1000, random: () => r });
    expect([0, 1, 2, 3, 4, 10].map((retry) => fullJitterDelay(retry, opts(0.999999)))).toEqual([99, 199, 399, 799, 999, 999]);
    expect(fullJitterDelay(3, opts(0))).toBe(0);
    expect(fullJitterDelay(2, opts(0.5))).toBe(200);
  });
});

describe('backoff', () => {
  it('waits a full-jitter delay per retry, with the defaults (8 attempts, 25 ms base, 2 s cap)', async () => {
    const slept: number[] = [];
    const policy = backoff({ random: () => 0.999999, sleep: async (ms) => void slept.push(ms) });
    for (let retry = 1; retry <= 8; retry++) await policy.wait(retry);
    expect(policy.maxAttempts).toBe(8);
    expect(slept).toEqual([49, 99, 199, 399, 799, 1599, 1999, 1999]);
  });

  it('takes its attempts, base and cap from the options', async () => {
    const slept: number[] = [];
    const policy = backoff({ maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 30, random: () => 0.5, sleep: async (ms) => void slept.push(ms) });
    await policy.wait(1);
    await policy.wait(5);
    expect(policy.maxAttempts).toBe(3);
    expect(slept).toEqual([10, 15]);
  });
});
