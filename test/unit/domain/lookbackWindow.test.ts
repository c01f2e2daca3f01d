import { describe, expect, it } from 'vitest';
import { INTERVALS, INTERVAL_MS } from '../../../functions/domain/interval';
import { lookbackWindowMs, MAX_LOOKBACK_POINTS } from '../../../functions/domain/lookbackWindow';

const DAY = 86_400_000;

describe('lookbackWindowMs', () => {
  it('keeps the full lookback at 1h and longer, and caps finer intervals to the point budget', () => {
    expect(lookbackWindowMs('1h', 90 * DAY)).toBe(90 * DAY);
    expect(lookbackWindowMs('1d', 90 * DAY)).toBe(90 * DAY);
    expect(lookbackWindowMs('1m', 90 * DAY)).toBe(MAX_LOOKBACK_POINTS * 60_000);
    for (const interval of INTERVALS) {
      const window = lookbackWindowMs(interval, 90 * DAY);
      expect(window / INTERVAL_MS[interval]).toBeLessThanOrEqual(MAX_LOOKBACK_POINTS);
      expect(window).toBeLessThanOrEqual(90 * DAY);
    }
  });
});
