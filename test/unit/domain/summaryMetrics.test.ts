import { describe, expect, it } from 'vitest';
import { readSummaryValue, SUMMARY_METRICS, CHAIN_DRAWDOWN_LABEL } from '../../../functions/domain/summaryMetrics';

const received = (text: string) => ({ value: Number(text.replace('%', '')), percent: text.trim().endsWith('%'), text });

describe('readSummaryValue: units by rule', () => {
  it.each([
    ['0.4954', 49.54],
    ['0', 0],
    ['1', 100],
    ['49.54', 49.54],
    ['100', 100],
    ['49.54%', 49.54],
    ['0.5%', 0.5],
  ])('winRate %j is %d percent', (text, percent) => {
    const reading = readSummaryValue('winRate', received(text));
    expect(reading.kind).toBe('number');
    expect(reading.kind === 'number' && reading.value).toBeCloseTo(percent, 10);
  });

  it.each(['-0.2', '150', '1e3'])('winRate %j fits no rule and is shown as received', (text) => {
    expect(readSummaryValue('winRate', received(text))).toEqual({ kind: 'as-received', text });
  });

  it('reads %-suffixed values of the percent fields as percent points, never rescaled', () => {
    for (const field of ['returnPct', 'maxDrawdownPct', 'pnlVolatilityPct', 'avgDailyPnl'] as const) {
      expect(readSummaryValue(field, received('12.5%'))).toEqual({ kind: 'number', value: 12.5 });
      expect(readSummaryValue(field, received('0.4%'))).toEqual({ kind: 'number', value: 0.4 });
      // Without `%` the spec names no unit: shown as received.
      expect(readSummaryValue(field, received('0.125'))).toEqual({ kind: 'as-received', text: '0.125' });
    }
  });

  it('takes money, ratio and count fields as they are, and a `%` on them as received', () => {
    expect(readSummaryValue('pnl', received('-836.93'))).toEqual({ kind: 'number', value: -836.93 });
    expect(readSummaryValue('profitFactor', received('1.8734'))).toEqual({ kind: 'number', value: 1.8734 });
    expect(readSummaryValue('wins', received('12'))).toEqual({ kind: 'number', value: 12 });
    expect(readSummaryValue('pnl', received('12%'))).toEqual({ kind: 'as-received', text: '12%' });
  });

  it("names the chain's drawdown apart from the service's", () => {
    expect(SUMMARY_METRICS.maxDrawdownPct.label).toBe(CHAIN_DRAWDOWN_LABEL);
    expect(CHAIN_DRAWDOWN_LABEL).toBe('Max drawdown reported by the chain (sampled)');
  });
});
