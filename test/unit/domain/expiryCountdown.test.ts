import { describe, expect, it } from 'vitest';
import { expiryCountdown } from '../../../functions/domain/expiryCountdown';

const HOUR = 3_600_000;

describe('expiryCountdown', () => {
  it('counts whole days and hours left, truncating', () => {
    expect(expiryCountdown(2 * 24 * HOUR + 23 * HOUR + 59 * 60_000, 0)).toEqual({
      kind: 'expires',
      remainingMs: 2 * 24 * HOUR + 23 * HOUR + 59 * 60_000,
      days: 2,
      hours: 23,
    });
    expect(expiryCountdown(1_000 + 30 * 60_000, 1_000)).toMatchObject({ days: 0, hours: 0, remainingMs: 30 * 60_000 });
  });

  it('is expired from the expiry instant on, and says how long ago', () => {
    expect(expiryCountdown(5_000, 5_000)).toEqual({ kind: 'expired', agoMs: 0 });
    expect(expiryCountdown(5_000, 5_000 + HOUR)).toEqual({ kind: 'expired', agoMs: HOUR });
  });

  it('has no countdown without an expiry', () => {
    expect(expiryCountdown(null, 123)).toEqual({ kind: 'no-expiry' });
  });
});
