import { describe, expect, it } from 'vitest';
import { fullJitterDelay, parseRetryAfter } from '../../functions/chain/backoff';

describe('backoff', () => {
  it('draws uniformly below an exponentially growing, capped ceiling', () => {
    const opts = (r: number) => ({ baseDelayMs: 100, maxDelayMs: 1000, random: () => r });
    expect([0, 1, 2, 3, 4, 10].map((retry) => fullJitterDelay(retry, opts(0.999999)))).toEqual([99, 199, 399, 799, 999, 999]);
    expect(fullJitterDelay(3, opts(0))).toBe(0);
    expect(fullJitterDelay(2, opts(0.5))).toBe(200);
  });

  it('reads Retry-After as seconds or an HTTP date, capped', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now, 30_000)).toBe(2000);
    expect(parseRetryAfter(' 0 ', now, 30_000)).toBe(0);
    expect(parseRetryAfter('3600', now, 30_000)).toBe(30_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now, 30_000)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now, 30_000)).toBe(0);
    expect(parseRetryAfter('Fri, 02 Jan 2026 00:00:00 GMT', now, 30_000)).toBe(30_000);
  });

  it.each([null, undefined, '', '-1', '1.5', 'soon', '12abc'])('ignores an unreadable Retry-After %j', (value) => {
    expect(parseRetryAfter(value, 0, 30_000)).toBeUndefined();
  });
});
