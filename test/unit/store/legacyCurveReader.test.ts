import { describe, expect, it } from 'vitest';
import { LEGACY_CURVE_READER_REMOVE_AFTER } from '../../../functions/store/curvesRepository';

describe('the reader of the per-point curve layout', () => {
  it('is removed once every per-point item has expired (this fails after its removal date, as a reminder)', () => {
    const removeAfter = Date.parse(`${LEGACY_CURVE_READER_REMOVE_AFTER}T00:00:00Z`);
    expect(Number.isFinite(removeAfter)).toBe(true);
    // 400 days of TTL after the bucket layout shipped (2026-11-23), plus DynamoDB's deletion delay.
    expect(removeAfter).toBeGreaterThan(Date.parse('2026-11-23T00:00:00Z') + 400 * 86_400_000);
    expect(Date.now(), `delete CurvesRepository's legacyPoints/mergePoints: per-point items expired before ${LEGACY_CURVE_READER_REMOVE_AFTER}`).toBeLessThan(
      removeAfter,
    );
  });
});
