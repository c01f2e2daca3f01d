import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SUMMARY_FIELDS, type SummaryField } from '../../../functions/domain/summaryFields';
import { summaryDelta, type SummaryValues } from '../../../functions/domain/summaryDelta';
import { SUMMARY_METRICS } from '../../../functions/domain/summaryMetrics';

const values = fc.record(
  Object.fromEntries(SUMMARY_FIELDS.map((f) => [f, fc.double({ min: -1e9, max: 1e9, noNaN: true })])) as Record<SummaryField, fc.Arbitrary<number>>,
);

describe('summaryDelta', () => {
  it('is null without a previous summary', () => {
    fc.assert(
      fc.property(values, (current) => {
        expect(summaryDelta(null, current)).toBeNull();
        expect(summaryDelta(undefined, current)).toBeNull();
      }),
      { numRuns: 20 },
    );
  });

  it('gives current - previous for every field and nothing else', () => {
    fc.assert(
      fc.property(values, values, (previous: SummaryValues, current: SummaryValues) => {
        const delta = summaryDelta(previous, current)!;
        expect(Object.keys(delta).sort()).toEqual([...SUMMARY_FIELDS].sort());
        for (const f of SUMMARY_FIELDS) expect(delta[f]).toBe(current[f] - previous[f]);
      }),
      { numRuns: 200 },
    );
  });

  it('is zero everywhere when nothing changed', () => {
    fc.assert(
      fc.property(values, (v) => {
        for (const d of Object.values(summaryDelta(v, v)!)) expect(d).toBe(0);
      }),
      { numRuns: 50 },
    );
  });
});

describe('SUMMARY_METRICS', () => {
  it('describes every summary field, with percent units for the fields the chain writes as percentages', () => {
    for (const f of SUMMARY_FIELDS) {
      const info = SUMMARY_METRICS[f];
      expect(info.label.length).toBeGreaterThan(0);
      expect(info.description.length).toBeGreaterThan(10);
    }
    for (const f of ['returnPct', 'maxDrawdownPct', 'pnlVolatilityPct', 'avgDailyPnl'] as const) {
      expect(SUMMARY_METRICS[f].unit).toBe('percent');
    }
    expect(SUMMARY_METRICS.totalTrades.unit).toBe('count');
  });
});
