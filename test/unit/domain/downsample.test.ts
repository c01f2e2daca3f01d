import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { downsampleIndices } from '../../../functions/domain/downsample';

describe('downsampleIndices', () => {
  it('keeps every point that fits', () => {
    expect(downsampleIndices([1, 2, 3], [[5, 6, 7]], 3)).toEqual([0, 1, 2]);
  });

  it('keeps at most about maxPoints, every extreme of every line, the last point and the marked ones', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: 0, max: 100, noNaN: true })), { minLength: 50, maxLength: 3000 }),
        fc.integer({ min: 8, max: 400 }),
        (rows, maxPoints) => {
          const t = rows.map((_, i) => i * 60_000);
          const a = rows.map((r) => r[0]);
          const b = rows.map((r) => r[1]);
          const keep = new Set([7, 13]);
          const kept = downsampleIndices(t, [a, b], maxPoints, keep);
          expect(kept).toEqual([...new Set(kept)].sort((x, y) => x - y));
          if (rows.length > maxPoints) expect(kept.length).toBeLessThanOrEqual(maxPoints + keep.size + 1);
          const values = (line: number[]) => kept.map((i) => line[i]!);
          expect(Math.min(...values(a))).toBe(Math.min(...a));
          expect(Math.max(...values(b))).toBe(Math.max(...b));
          expect(kept).toContain(rows.length - 1);
          for (const i of keep) expect(kept).toContain(i);
        },
      ),
      { numRuns: 100 },
    );
  });
});
