import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChainResponseShapeError } from '../../../functions/chain/errors';
import { portfolioSummarySchema } from '../../../functions/domain/portfolioSummary';
import { SUMMARY_FIELDS } from '../../../functions/domain/summaryFields';
import { parseDecimal, parseDecimalOrPercent, parseSummary, summaryReadings, summaryView } from '../../../functions/chain/summaryView';
import { portfolioBody } from '../../support/chain/portfolioFixture';
import { thrownBy } from '../../support/thrownBy';

const summary = () => portfolioSummarySchema.parse(portfolioBody().summary);

const shapeError = (run: () => unknown): ChainResponseShapeError => thrownBy(ChainResponseShapeError, run);

describe('summary view', () => {
  it('parses percent strings to their number with the percent flag', () => {
    expect(parseDecimalOrPercent('returnPct', '12.5%')).toEqual({ value: 12.5, percent: true });
    expect(parseDecimalOrPercent('returnPct', ' -0.75 % ')).toEqual({ value: -0.75, percent: true });
    expect(parseDecimalOrPercent('pnl', '-3.25')).toEqual({ value: -3.25, percent: false });
    expect(parseDecimalOrPercent('volume', '1e3')).toEqual({ value: 1000, percent: false });
  });

  it('gives every one of the 18 fields a finite number', () => {
    const input = summary();
    const view = summaryView(input);
    expect(Object.keys(view).sort()).toEqual([...SUMMARY_FIELDS].sort());
    expect(view.maxDrawdownPct.percent).toBe(true);
    expect(view.pnl.percent).toBe(false);
    expect(view.totalTrades).toEqual({ value: 42, percent: false });
    const numbers = parseSummary(input);
    for (const field of SUMMARY_FIELDS) {
      expect(Number.isFinite(numbers[field])).toBe(true);
      const raw = input[field];
      expect(numbers[field]).toBe(typeof raw === 'number' ? raw : Number(raw.replace('%', '')));
    }
  });

  it.each(['abc', '', '12.5%%', 'NaN', 'Infinity', '1e999', '%', '1,5'])('a bad value %j names the field', (bad) => {
    const input = { ...summary(), winRate: bad };
    const err = shapeError(() => summaryView(input));
    expect(err.path).toBe('summary.winRate');
    expect(err.message).toContain('summary.winRate');
  });

  it('parseDecimal refuses percent strings, naming the field', () => {
    expect(parseDecimal('equity[0].value', '10.5')).toBe(10.5);
    expect(shapeError(() => parseDecimal('equity[0].value', '10%')).path).toBe('equity[0].value');
  });

  it('round-trips any finite double written as a decimal string', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), (x, pct) => {
        const text = `${String(x)}${pct ? '%' : ''}`;
        expect(parseDecimalOrPercent('f', text)).toEqual({ value: x === 0 ? 0 : x, percent: pct });
      }),
    );
  });

  it.each([
    ['0.4954', { kind: 'number', value: 49.54 }],
    ['49.54', { kind: 'number', value: 49.54 }],
    ['49.54%', { kind: 'number', value: 49.54 }],
    [' 49.54 % ', { kind: 'number', value: 49.54 }],
    ['250', { kind: 'as-received', text: '250' }],
  ])('reads winRate %j by the unit rules', (winRate, expected) => {
    const reading: { kind: string; value?: number } = summaryReadings({ ...summary(), winRate }).winRate;
    expect(reading.kind).toBe(expected.kind);
    if ('value' in expected) expect(reading.value).toBeCloseTo(expected.value, 10);
    else expect(reading).toEqual(expected);
  });

  it('reads every field of a summary, percent fields with `%` as percent points', () => {
    const readings = summaryReadings({ ...summary(), returnPct: '12.5%', maxDrawdownPct: '3%', pnl: '-836.93', totalTrades: 7 });
    expect(Object.keys(readings).sort()).toEqual([...SUMMARY_FIELDS].sort());
    expect(readings.returnPct).toEqual({ kind: 'number', value: 12.5 });
    expect(readings.maxDrawdownPct).toEqual({ kind: 'number', value: 3 });
    expect(readings.pnl).toEqual({ kind: 'number', value: -836.93 });
    expect(readings.totalTrades).toEqual({ kind: 'number', value: 7 });
  });
});
