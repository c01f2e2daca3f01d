import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalStringSchema } from '../../../functions/domain/curvePoint';
import { curveBucketSchema, packPoint } from '../../../functions/store/curveBucket';

const START = 1_800_000_000_000 - (1_800_000_000_000 % 720_000);
const side = fc.oneof(
  fc.double().map(String),
  fc.integer().map(String),
  fc.constantFrom('', '1.', '.5', '-0.25e-3', '+7', 'NaN', 'Infinity', '1e', '--1', '0x10', ' 1', '1 ', '½'),
  fc.string({ maxLength: 6 }),
);

describe('curveBucketSchema', () => {
  it('accepts a plain "<equity>|<pnl>" slot exactly when each side is empty or a decimal string and not both are empty, and reads both sides as written', () => {
    fc.assert(
      fc.property(side, side, (equity, pnl) => {
        const parsed = curveBucketSchema('1m').safeParse({ series: 's', ts: START, p3: `${equity}|${pnl}` });
        const valid = (s: string) => s === '' || decimalStringSchema.safeParse(s).success;
        const accepted = !equity.includes('|') && !pnl.includes('|') && valid(equity) && valid(pnl) && !(equity === '' && pnl === '');
        expect(parsed.success).toBe(accepted);
        if (parsed.success) {
          expect(parsed.data.points).toEqual([{ ts: START + 180_000, ...(equity === '' ? {} : { equity }), ...(pnl === '' ? {} : { pnl }) }]);
        }
      }),
    );
  });

  it('round-trips a point with a placed step, and names the slot of a malformed value', () => {
    const point = { ts: START + 60_000, equity: '100.5', pnl: '-3', step: { placement: 'conservative' as const, r: -0.02, fromTs: START, favourable: 0.01 } };
    expect(curveBucketSchema('1m').parse({ series: 's', ts: START, p1: packPoint(point) }).points).toEqual([point]);
    const bad = curveBucketSchema('1m').safeParse({ series: 's', ts: START, p1: '100|x' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['p1']);
  });
});
