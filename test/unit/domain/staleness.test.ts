import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INTERVAL_MS, INTERVALS } from '../../../functions/domain/interval';
import { accountHealth, isDataFresh, type HealthInput } from '../../../functions/domain/staleness';

const HOUR = 3_600_000;
const NOW = Date.parse('2024-07-01T12:00:00Z');
const base: HealthInput = { latestPointAt: NOW - HOUR, now: NOW, interval: '1h', consecutiveEmptyPolls: 0, consecutiveErrors: 0 };

describe('accountHealth', () => {
  it('is ok with a recent point and no errors', () => {
    expect(accountHealth(base)).toEqual({ status: 'ok', reason: null });
  });

  it('is stale once the newest point is older than three intervals, saying how old', () => {
    expect(accountHealth({ ...base, latestPointAt: NOW - 3 * HOUR }).status).toBe('ok');
    expect(accountHealth({ ...base, latestPointAt: NOW - 3 * HOUR - 10 * 60_000 })).toEqual({
      status: 'stale',
      reason: 'newest point is 3h 10m old (more than 3 × 1h)',
    });
  });

  it('takes the thresholds as parameters', () => {
    expect(accountHealth({ ...base, latestPointAt: NOW - 2 * HOUR, staleAfterIntervals: 1 }).status).toBe('stale');
    expect(accountHealth({ ...base, consecutiveErrors: 1, failAfterErrors: 1 }).status).toBe('failing');
  });

  it('is failing after three consecutive errors, quoting the last one, even with fresh data', () => {
    expect(accountHealth({ ...base, consecutiveErrors: 2 }).status).toBe('ok');
    expect(accountHealth({ ...base, consecutiveErrors: 3, lastError: 'HTTP 500 from indexer' })).toEqual({
      status: 'failing',
      reason: '3 consecutive collection errors; last: HTTP 500 from indexer',
    });
  });

  it('gives a new account time before calling it stale', () => {
    const fresh = { ...base, latestPointAt: null };
    expect(accountHealth({ ...fresh, consecutiveEmptyPolls: 2 }).status).toBe('ok');
    expect(accountHealth({ ...fresh, consecutiveEmptyPolls: 3 })).toEqual({ status: 'stale', reason: 'no data from the chain after 3 polls' });
  });
});

describe('isDataFresh', () => {
  it('agrees with accountHealth when there are no errors', () => {
    fc.assert(
      fc.property(fc.constantFrom(...INTERVALS), fc.integer({ min: 0, max: 10 * 86_400_000 }), (interval, age) => {
        const fresh = isDataFresh(NOW - age, NOW, interval);
        expect(fresh).toBe(age <= 3 * INTERVAL_MS[interval]);
        expect(accountHealth({ ...base, interval, latestPointAt: NOW - age }).status).toBe(fresh ? 'ok' : 'stale');
      }),
      { numRuns: 200 },
    );
  });

  it('is false without any point', () => {
    expect(isDataFresh(null, NOW, '1h')).toBe(false);
  });
});
