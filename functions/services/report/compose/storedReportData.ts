import type { ReportModelInput } from '../../../domain/reportModel';
import { reportWindows } from '../../../domain/reportWindows';
import type { PeriodWindows } from '../../../domain/periodWindows';
import { addDays, localDate } from '../../../domain/localTime';
import type { SeriesPoint } from '../../../domain/series';
import type { TrackedAccount } from '../../../domain/account';
import { storedSeries } from '../../../store/storedSeries';
import { delegatesOf, previousSummary, read, storedHistory, type ReportData, type ReportDataRepos, type ReportPeriod } from './reportData';

const within = (series: readonly SeriesPoint[], fromMs: number, toMs: number): SeriesPoint[] => series.filter((p) => p.timestamp >= fromMs && p.timestamp <= toMs);

/**
 * What an account's daily report shows when the chain did not answer (`chainFailedAt`), from the
 * store alone: each window's curves from the stored points (the day's figures and the chart), the
 * chain's 7- and 30-day metrics from the latest report record before the covered day (yesterday's
 * report), the day's own metrics missing; no changes. Nothing is stored for the next report to
 * compare with (`record: null`).
 */
export async function loadStoredReportData(repos: ReportDataRepos, account: TrackedAccount, period: ReportPeriod, now: number, chainFailedAt: number): Promise<ReportData> {
  const windows = reportWindows(period.localDate, account.timezone);
  const [points, views, previous] = await Promise.all([
    storedHistory(repos, account, now),
    repos.delegates.listForAccount(account.address),
    repos.reportRecords.latestBefore(account.address, account.timezone, period.localDate),
  ]);
  const history = storedSeries(points);
  return {
    record: null,
    input: {
      settings: { address: account.address, label: account.label, timezone: account.timezone, interval: account.interval },
      day: { localDate: period.localDate, startMs: period.startMs, endMs: period.endMs },
      windows: windows.map((window) => ({
        window,
        summary: window.key === 'day' ? null : read(previousSummary(previous, window)),
        series: within(history, window.fromMs, window.toMs),
        previous: null,
      })),
      history,
      ...delegatesOf(views, period.previousReportAt, now),
      now,
      source: { kind: 'stored', chainFailedAt, storedAsOf: history.at(-1)?.timestamp ?? null, metricsFrom: previous?.coveredDate ?? null },
    },
  };
}

/**
 * What a weekly or monthly summary shows when the chain did not answer: the span's curves from the
 * stored points (its figures and chart), the chain's metrics missing (no record holds a week's or
 * a month's), no changes.
 */
export async function loadStoredSummaryData(
  repos: Pick<ReportDataRepos, 'curves' | 'delegates'>,
  account: TrackedAccount,
  windows: PeriodWindows,
  now: number,
  chainFailedAt: number,
): Promise<ReportModelInput> {
  const [points, views] = await Promise.all([storedHistory(repos, account, now), repos.delegates.listForAccount(account.address)]);
  const history = storedSeries(points);
  const { current: window } = windows;
  return {
    settings: { address: account.address, label: account.label, timezone: account.timezone, interval: account.interval },
    day: { localDate: addDays(localDate(window.toMs, account.timezone), -1), startMs: window.fromMs, endMs: window.toMs },
    windows: [{ window, summary: null, series: within(history, window.fromMs, window.toMs), previous: null }],
    history,
    ...delegatesOf(views, window.fromMs, now),
    now,
    source: { kind: 'stored', chainFailedAt, storedAsOf: history.at(-1)?.timestamp ?? null, metricsFrom: null },
  };
}
