import type { ChainClient } from '../../chain/ports';
import { summaryReadings } from '../../chain/summaryView';
import { lookbackWindowMs } from '../../domain/lookbackWindow';
import type { ReportModelInput, SummaryReadings, WindowInput } from '../../domain/reportModel';
import { reportWindows, type ReportWindow } from '../../domain/reportWindows';
import { alignCurves } from '../../domain/series';
import type { PortfolioSummary } from '../../domain/portfolioSummary';
import type { AccountRecord } from '../../store/accountItem';
import type { CurvesRepository } from '../../store/curvesRepository';
import type { DelegateViewRepository } from '../../store/delegateViewRepository';
import type { ReportRecord, ReportRecordsRepository, ReportWindowRecord } from '../../store/reportRecordsRepository';
import { storedSeries } from '../../store/storedSeries';
import { DEFAULT_COLLECT_SETTINGS } from '../collect/collectSettings';

/** The local day a report covers, and when the report before it was due. */
export interface ReportPeriod {
  /** The covered local date, `YYYY-MM-DD`. */
  readonly localDate: string;
  readonly startMs: number;
  readonly endMs: number;
  /** The previous report's instant: removed delegates are counted from it. */
  readonly previousReportAt: number;
}

/** What a report is built from, and the record the next report compares with. */
export interface ReportData {
  readonly input: ReportModelInput;
  /** This report's window summaries as received, to store once the report is built. */
  readonly record: ReportRecord;
}

export interface ReportDataRepos {
  readonly curves: Pick<CurvesRepository, 'queryRange'>;
  readonly delegates: Pick<DelegateViewRepository, 'listForAccount'>;
  readonly reportRecords: Pick<ReportRecordsRepository, 'latestBefore'>;
}

/** The chain port the report reads its windows from. */
export type ReportChain = Pick<ChainClient, 'getPortfolio'>;

function previousSummary(previous: ReportRecord | null, window: ReportWindow): PortfolioSummary | null {
  return previous?.windows.find((w) => w.key === window.key)?.summary ?? null;
}

/**
 * Reads what one account's report shows. From the chain, one `GET /portfolio` per window
 * (`reportWindows`: the report day, the last 7 and 30 local days, each at its `summaryInterval`):
 * the window's summary, and its curves (the day's figures and the chart). A window the chain has
 * no point in has no summary. From the store: the previous report's window summaries, the curves
 * over the drawdown lookback up to `now` (the flow-adjusted drawdown as of now), the delegates
 * listed now and those removed since the previous report.
 */
export async function loadReportData(
  repos: ReportDataRepos,
  chain: ReportChain,
  account: AccountRecord,
  period: ReportPeriod,
  now: number,
): Promise<ReportData> {
  const windows = reportWindows(period.localDate, account.timezone);
  const [points, views, previous, fetched] = await Promise.all([
    repos.curves.queryRange(account.address, account.interval, Math.max(0, now - lookbackWindowMs(account.interval, DEFAULT_COLLECT_SETTINGS.lookbackMs)), now),
    repos.delegates.listForAccount(account.address),
    repos.reportRecords.latestBefore(account.address, period.localDate),
    // Sequential: the chain client's token bucket paces them either way, and a failure stops the rest.
    (async () => {
      const out: { window: ReportWindow; summary: PortfolioSummary | null; series: WindowInput['series'] }[] = [];
      for (const window of windows) {
        const response = await chain.getPortfolio({ account: account.address, from: window.fromMs, to: window.toMs, interval: window.interval });
        const series = alignCurves(response.equity, response.pnl).filter((p) => p.timestamp >= window.fromMs && p.timestamp <= window.toMs);
        out.push({ window, summary: series.length === 0 ? null : response.summary, series });
      }
      return out;
    })(),
  ]);
  const read = (summary: PortfolioSummary | null): SummaryReadings | null => (summary ? summaryReadings(summary) : null);
  const record: ReportRecord = {
    address: account.address,
    coveredDate: period.localDate,
    savedAt: now,
    windows: fetched.map(({ window, summary }): ReportWindowRecord => ({ key: window.key, fromMs: window.fromMs, toMs: window.toMs, interval: window.interval, summary })),
  };
  return {
    record,
    input: {
      settings: { address: account.address, label: account.label, timezone: account.timezone, interval: account.interval },
      day: { localDate: period.localDate, startMs: period.startMs, endMs: period.endMs },
      windows: fetched.map(({ window, summary, series }) => ({
        window,
        summary: read(summary),
        series,
        previous: read(previousSummary(previous, window)),
      })),
      history: storedSeries(points),
      delegates: views
        .filter((v) => v.removedAt === null)
        .map((v) => ({ address: v.delegate, expiryMs: v.expiryMs, name: v.name, isWebClient: v.isWebClient })),
      removedDelegates: views.flatMap((v) =>
        v.removedAt !== null && v.removedAt > period.previousReportAt && v.removedAt <= now
          ? [{ address: v.delegate, name: v.name, removedAt: v.removedAt }]
          : [],
      ),
      now,
    },
  };
}
