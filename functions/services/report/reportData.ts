import { parseSummary } from '../../chain/summaryView';
import type { ReportModelInput } from '../../domain/reportModel';
import { pointsBetween, type SeriesPoint } from '../../domain/series';
import type { AccountRecord } from '../../store/accountItem';
import type { CurvesRepository } from '../../store/curvesRepository';
import type { DelegateViewRepository } from '../../store/delegateViewRepository';
import type { SnapshotsRepository } from '../../store/snapshotsRepository';
import { storedSeries } from '../../store/storedSeries';
import { lookbackWindowMs } from '../../domain/lookbackWindow';
import { DEFAULT_COLLECT_SETTINGS } from '../collect/collectSettings';

/** The local day a report covers, and when the report before it was due. */
export interface ReportPeriod {
  /** The covered local date, `YYYY-MM-DD`. */
  readonly localDate: string;
  readonly startMs: number;
  readonly endMs: number;
  /** The previous report's instant: metric changes and removed delegates are counted from it. */
  readonly previousReportAt: number;
}

/** Stored data a report is built from. */
export interface ReportData {
  readonly input: ReportModelInput;
  /** The stored points of the drawdown lookback window, oldest first (for the chart). */
  readonly history: SeriesPoint[];
}

export interface ReportDataRepos {
  readonly curves: Pick<CurvesRepository, 'queryRange'>;
  readonly snapshots: Pick<SnapshotsRepository, 'latestBefore'>;
  readonly delegates: Pick<DelegateViewRepository, 'listForAccount'>;
}

/**
 * Reads what the daily report shows, from stored data only: the curves over the drawdown lookback
 * (`lookbackWindowMs`, up to `now`), the summary current now and the one current at the previous report, the
 * delegates listed now and those removed since the previous report.
 */
export async function loadReportData(repos: ReportDataRepos, account: AccountRecord, period: ReportPeriod, now: number): Promise<ReportData> {
  const [points, current, previous, views] = await Promise.all([
    repos.curves.queryRange(account.address, account.interval, Math.max(0, now - lookbackWindowMs(account.interval, DEFAULT_COLLECT_SETTINGS.lookbackMs)), now),
    repos.snapshots.latestBefore(account.address, now + 1),
    repos.snapshots.latestBefore(account.address, period.previousReportAt),
    repos.delegates.listForAccount(account.address),
  ]);
  const history = storedSeries(points);
  return {
    history,
    input: {
      settings: { address: account.address, label: account.label, timezone: account.timezone },
      day: { localDate: period.localDate, startMs: period.startMs, endMs: period.endMs },
      daySeries: pointsBetween(history, period.startMs, period.endMs),
      history,
      trackingSince: account.createdAt,
      previousSummary: previous ? parseSummary(previous.summary) : null,
      currentSummary: current ? parseSummary(current.summary) : null,
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
