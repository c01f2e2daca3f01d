import type { ChainClient } from '../../../chain/ports';
import { summaryReadings } from '../../../chain/summaryView';
import { lookbackWindowMs } from '../../../domain/lookbackWindow';
import type { ReportModelInput, SummaryReadings, WindowInput } from '../../../domain/reportModel';
import { reportWindows, type PeriodWindows, type ReportWindow } from '../../../domain/reportWindows';
import { addDays, localDate } from '../../../domain/localTime';
import type { CoveredDay } from '../../../domain/reportPlan';
import { alignCurves, type SeriesPoint } from '../../../domain/series';
import type { PortfolioSummary } from '../../../domain/portfolioSummary';
import type { TrackedAccount } from '../../../domain/account';
import type { CurvesRepository } from '../../../store/curvesRepository';
import type { DelegateView, DelegateViewRepository } from '../../../store/delegateViewRepository';
import type { ReportRecord, ReportRecordsRepository, ReportWindowRecord } from '../../../store/reportRecordsRepository';
import { storedSeries } from '../../../store/storedSeries';
import { DEFAULT_COLLECT_SETTINGS } from '../../collect/collectSettings';
import { setTimeout as sleepTimer } from 'node:timers/promises';
import { ChainError } from '../../../chain/errors';
import { currentDeadline } from '../../../shared/deadline';
import { RetryLaterError } from '../../../shared/retryLaterError';

/** What a report is built from, and the record the next report compares with. */
export interface ReportData {
  readonly input: ReportModelInput;
  /** This report's window summaries as received, to store once the report is built; `null` when built from stored data (nothing new to compare with). */
  readonly record: ReportRecord | null;
}

export interface ReportDataRepos {
  readonly curves: Pick<CurvesRepository, 'queryRange'>;
  readonly delegates: Pick<DelegateViewRepository, 'listForAccount'>;
  readonly reportRecords: Pick<ReportRecordsRepository, 'latestBefore'>;
}

/** The chain port the report reads its windows from. */
export type ReportChain = Pick<ChainClient, 'getPortfolio'>;

/** What a report covers: a daily report's day (its three windows), or a weekly or monthly summary's windows. */
export type ReportSpan = { readonly kind: 'day'; readonly day: CoveredDay } | { readonly kind: 'summary'; readonly windows: PeriodWindows };

/** What reading a report's figures needs: the stores, the chain, the clock and the stored-data grace. */
export interface ReportDataDeps {
  readonly repos: ReportDataRepos;
  readonly chain: ReportChain;
  readonly now: () => number;
  /** How long after its due time a report whose chain reads fail is built from stored data; default 60 s. */
  readonly storedDataGraceMs?: number;
  /** Waits between chain tries during that grace; default real time. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * Reads what `account`'s report of `span` shows: from the chain (`loadReportData`, `loadSummaryData`),
 * within the grace of a report due at `dueAt` (`withChainGrace`): once the chain is given up, from
 * the store alone (`loadStoredReportData`, `loadStoredSummaryData`). Without `dueAt` (forced, CLI)
 * it waits for the chain. A summary stores no record.
 */
export async function readReportData(
  deps: ReportDataDeps,
  dueAt: number | undefined,
  account: TrackedAccount,
  span: ReportSpan,
  now: number,
): Promise<ReportData> {
  const grace = chainGraceOf(deps, dueAt);
  if (span.kind === 'day') {
    return withChainGrace(
      grace,
      () => loadReportData(deps.repos, deps.chain, account, span.day, now),
      (failedAt) => loadStoredReportData(deps.repos, account, span.day, now, failedAt),
    );
  }
  const input = await withChainGrace(
    grace,
    () => loadSummaryData(deps.repos, deps.chain, account, span.windows, now),
    (failedAt) => loadStoredSummaryData(deps.repos, account, span.windows, now, failedAt),
  );
  return { input, record: null };
}

/** The summary of `window` in the report record `previous` (matched by window key and sampling). */
function previousSummary(previous: ReportRecord | null, window: ReportWindow): PortfolioSummary | null {
  // A window asked at another sampling (a report from before the one-sampling rule) is not compared.
  return previous?.windows.find((w) => w.key === window.key && w.interval === window.interval)?.summary ?? null;
}

type FetchedWindow<W extends ReportWindow = ReportWindow> = { window: W; summary: PortfolioSummary | null; series: WindowInput['series'] };

/** One `GET /portfolio` for `window`: its summary (none when the chain has no point in it) and its curves. */
async function fetchWindow<W extends ReportWindow>(chain: ReportChain, address: string, window: W): Promise<FetchedWindow<W>> {
  const response = await chain.getPortfolio({ account: address, from: window.fromMs, to: window.toMs, interval: window.interval });
  const series = alignCurves(response.equity, response.pnl).filter((p) => p.timestamp >= window.fromMs && p.timestamp <= window.toMs);
  return { window, summary: series.length === 0 ? null : response.summary, series };
}

/** A summary read by the unit rules. */
const read = (summary: PortfolioSummary | null): SummaryReadings | null => (summary ? summaryReadings(summary) : null);

/** The delegates listed now, and those removed between `since` and `now`. */
function delegatesOf(views: readonly DelegateView[], since: number, now: number): Pick<ReportModelInput, 'delegates' | 'removedDelegates'> {
  return {
    delegates: views.filter((v) => v.removedAt === null).map((v) => ({ address: v.delegate, expiryMs: v.expiryMs, name: v.name, isWebClient: v.isWebClient })),
    removedDelegates: views.flatMap((v) =>
      v.removedAt !== null && v.removedAt > since && v.removedAt <= now ? [{ address: v.delegate, name: v.name, removedAt: v.removedAt }] : [],
    ),
  };
}

/** The stored curve points of the drawdown lookback window up to `now`. */
function storedHistory(repos: Pick<ReportDataRepos, 'curves'>, account: TrackedAccount, now: number) {
  return repos.curves.queryRange(
    account.address,
    account.interval,
    Math.max(0, now - lookbackWindowMs(account.interval, DEFAULT_COLLECT_SETTINGS.lookbackMs)),
    now,
  );
}

/**
 * Reads what one account's report shows. From the chain, one `GET /portfolio` per window
 * (`reportWindows`: the report day, the last 7 and 30 local days, all at one `reportSampling`):
 * the window's summary, and its curves (the day's figures and the chart). A window the chain has
 * no point in has no summary. From the store: the previous report's window summaries, the curves
 * over the drawdown lookback up to `now` (the flow-adjusted drawdown as of now), the delegates
 * listed now and those removed since the previous report.
 */
export async function loadReportData(
  repos: ReportDataRepos,
  chain: ReportChain,
  account: TrackedAccount,
  period: CoveredDay,
  now: number,
): Promise<ReportData> {
  const windows = reportWindows(period.localDate, account.timezone);
  const [points, views, previous, fetched] = await Promise.all([
    storedHistory(repos, account, now),
    repos.delegates.listForAccount(account.address),
    repos.reportRecords.latestBefore(account.address, account.timezone, period.localDate),
    // Sequential: the chain client's token bucket paces them either way, and a failure stops the rest.
    (async () => {
      const out: FetchedWindow<(typeof windows)[number]>[] = [];
      for (const window of windows) out.push(await fetchWindow(chain, account.address, window));
      return out;
    })(),
  ]);
  const record: ReportRecord = {
    address: account.address,
    coveredDate: period.localDate,
    timeZone: account.timezone,
    savedAt: now,
    windows: fetched.map(({ window, summary }): ReportWindowRecord => ({
      key: window.key,
      fromMs: window.fromMs,
      toMs: window.toMs,
      interval: window.interval,
      summary,
    })),
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
      ...delegatesOf(views, period.previousReportAt, now),
      now,
    },
  };
}

/**
 * Reads what a weekly or monthly summary shows: two `GET /portfolio` requests, the summary's window
 * (its summary and curves: the span's figures and chart) and the window just before it (its summary:
 * the changes, so a first summary has them too and nothing depends on a record kept for a month);
 * from the store the same as the daily report, delegates removed during the window. Nothing is
 * stored: the daily report's records stay the daily windows'.
 */
async function loadSummaryData(
  repos: Pick<ReportDataRepos, 'curves' | 'delegates'>,
  chain: ReportChain,
  account: TrackedAccount,
  windows: PeriodWindows,
  now: number,
): Promise<ReportModelInput> {
  const [points, views, current, previous] = await Promise.all([
    storedHistory(repos, account, now),
    repos.delegates.listForAccount(account.address),
    fetchWindow(chain, account.address, windows.current),
    fetchWindow(chain, account.address, windows.previous),
  ]);
  const { current: window } = windows;
  return {
    settings: { address: account.address, label: account.label, timezone: account.timezone, interval: account.interval },
    day: { localDate: addDays(localDate(window.toMs, account.timezone), -1), startMs: window.fromMs, endMs: window.toMs },
    windows: [{ window, summary: read(current.summary), series: current.series, previous: read(previous.summary) }],
    history: storedSeries(points),
    ...delegatesOf(views, window.fromMs, now),
    now,
  };
}

const within = (series: readonly SeriesPoint[], fromMs: number, toMs: number): SeriesPoint[] =>
  series.filter((p) => p.timestamp >= fromMs && p.timestamp <= toMs);

/**
 * What an account's daily report shows when the chain did not answer (`chainFailedAt`), from the
 * store alone: each window's curves from the stored points (the day's figures and the chart), the
 * chain's 7- and 30-day metrics from the latest report record before the covered day (yesterday's
 * report), the day's own metrics missing; no changes. Nothing is stored for the next report to
 * compare with (`record: null`).
 */
async function loadStoredReportData(
  repos: ReportDataRepos,
  account: TrackedAccount,
  period: CoveredDay,
  now: number,
  chainFailedAt: number,
): Promise<ReportData> {
  const [points, views, previous] = await Promise.all([
    storedHistory(repos, account, now),
    repos.delegates.listForAccount(account.address),
    repos.reportRecords.latestBefore(account.address, account.timezone, period.localDate),
  ]);
  return { record: null, input: storedReportInput(account, period, storedSeries(points), { views, previous, now, chainFailedAt }) };
}

/**
 * A daily report's input from stored data alone (what `loadStoredReportData` builds once the chain
 * is given up): each window's curves from `history` (the stored points up to `now`; the day's
 * figures and the chart), the chain's 7- and 30-day metrics from `previous` (the latest report
 * record before the day), the day's own metrics missing, no changes. Pure: the desk page builds
 * its day figures with it, so they are the report's.
 */
export function storedReportInput(
  account: Pick<TrackedAccount, 'address' | 'label' | 'timezone' | 'interval'>,
  period: CoveredDay,
  history: readonly SeriesPoint[],
  context: { readonly views: readonly DelegateView[]; readonly previous: ReportRecord | null; readonly now: number; readonly chainFailedAt: number },
): ReportModelInput {
  const { views, previous, now, chainFailedAt } = context;
  const windows = reportWindows(period.localDate, account.timezone);
  return {
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
  };
}

/**
 * What a weekly or monthly summary shows when the chain did not answer: the span's curves from the
 * stored points (its figures and chart), the chain's metrics missing (no record holds a week's or
 * a month's), no changes.
 */
async function loadStoredSummaryData(
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

/** How long after its due time a report whose chain reads fail is built from stored data, by default. */
export const DEFAULT_STORED_DATA_GRACE_MS = 60_000;

/** Chain reads are tried again this often during the grace. */
export const CHAIN_RETRY_EVERY_MS = 15_000;

/** When a report gives the chain up. */
interface ChainGrace {
  /** From this instant a chain failure builds the report from stored data; `null`: never (forced and CLI reports wait for the chain). */
  readonly fallbackFrom: number | null;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

/** The chain grace of a report due at `dueAt` (a queued job's); without `dueAt` (forced, CLI) the report never falls back to stored data. */
function chainGraceOf(
  deps: { readonly now: () => number; readonly sleep?: (ms: number) => Promise<void>; readonly storedDataGraceMs?: number },
  dueAt: number | undefined,
): ChainGrace {
  return {
    fallbackFrom: dueAt === undefined ? null : dueAt + (deps.storedDataGraceMs ?? DEFAULT_STORED_DATA_GRACE_MS),
    now: deps.now,
    sleep: deps.sleep ?? ((ms) => sleepTimer(ms).then(() => undefined)),
  };
}

/**
 * Reads a report's figures from the chain (`read`), trying again every `CHAIN_RETRY_EVERY_MS`
 * while the chain fails, until `grace.fallbackFrom`; from then on a chain failure builds them from
 * stored data (`stored`, told when the chain was given up). Any other failure (the store) throws
 * as it is. When the invocation's deadline would pass before the next try, a `RetryLaterError`
 * brings the job back at the end of the grace.
 */
async function withChainGrace<T>(grace: ChainGrace, read: () => Promise<T>, stored: (chainFailedAt: number) => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof ChainError) || grace.fallbackFrom === null) throw error;
      const now = grace.now();
      if (now >= grace.fallbackFrom) return stored(now);
      const wait = Math.min(CHAIN_RETRY_EVERY_MS, grace.fallbackFrom - now);
      const deadline = currentDeadline();
      if (deadline !== undefined && Date.now() + wait >= deadline) {
        throw new RetryLaterError('the chain did not answer; the report is tried again', { cause: error, retryAfterMs: grace.fallbackFrom - now });
      }
      await grace.sleep(wait);
    }
  }
}
