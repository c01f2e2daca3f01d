import { describe, expect, it } from 'vitest';
import { parseCostArgs, reportBenchArgs } from '../../../bench/costArgs';
import { parseReportArgs } from '../../../bench/reportArgs';

describe('bench:cost arguments', () => {
  it('has valid defaults', () => {
    expect(parseCostArgs([])).toEqual({
      accounts: 100,
      intervals: ['1m', '15m', '1h'],
      latencyMs: 50,
      reports: 40,
      historyDays: 90,
      collectConcurrency: undefined,
      burstSeconds: 1,
    });
  });

  it('runs bench/report.ts with arguments its parser accepts, at the default and the smallest --reports', () => {
    for (const argv of [[], ['--reports', '5']]) {
      const { reports } = parseCostArgs(argv);
      expect(parseReportArgs(reportBenchArgs(reports))).toMatchObject({ accounts: reports, concurrency: [1], digests: false });
    }
  });

  it('reads the options it is given and refuses bad ones with a clear error', () => {
    expect(parseCostArgs(['--intervals', '1h', '--history-days', '0', '--accounts', '20'])).toMatchObject({ intervals: ['1h'], historyDays: 0, accounts: 20 });
    expect(() => parseCostArgs(['--history-days', '-1'])).toThrow(/--history-days/);
    expect(() => parseCostArgs(['--intervals', '2h'])).toThrow(/unknown interval 2h/);
    expect(() => parseCostArgs(['--reports', '4'])).toThrow(/--reports/);
  });
});
