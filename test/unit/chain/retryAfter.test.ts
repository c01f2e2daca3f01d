import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../../functions/chain/retryAfter';

describe('parseRetryAfter', () => {
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
