import { describe, expect, it } from 'vitest';
import { WEBHOOK_RETRY_DELAYS_MS, webhookExhaustedReason, webhookRetryAfter } from '../../../functions/domain/webhookRetrySchedule';

describe('the webhook retry schedule', () => {
  it("follows Svix's schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the first attempt, then none", () => {
    const waits: number[] = [];
    for (let failures = 1; ; failures++) {
      const next = webhookRetryAfter(failures);
      if (next.kind === 'exhausted') break;
      waits.push(next.delayMs / 1_000);
    }
    expect(waits).toEqual([5, 300, 1_800, 7_200, 18_000, 36_000, 36_000]);
    expect(webhookRetryAfter(8)).toEqual({ kind: 'exhausted' });
  });

  it('spans about a day, far past the queue’s 15-minute delay', () => {
    const total = WEBHOOK_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total / 3_600_000).toBeGreaterThan(27);
    expect(total / 3_600_000).toBeLessThan(28);
  });

  it('names how long and how many attempts failed, and the last answer', () => {
    expect(webhookExhaustedReason(27.6 * 3_600_000, 8, 'HTTP 503: Service Unavailable')).toBe(
      'failing for 27 h over 8 attempts; last: HTTP 503: Service Unavailable',
    );
    expect(webhookExhaustedReason(90_000, 2, 'no answer: timeout')).toBe('failing for 1 min over 2 attempts; last: no answer: timeout');
  });
});
