import type { ChainClient } from '../../../chain/ports';
import { summaryReadings } from '../../../chain/summaryView';
import { lookbackWindowMs } from '../../../domain/lookbackWindow';
import type { ReportModelInput } from '../../../domain/reportModel';
import { reportInput, type ChainWindow, type PreviousReport, type ReportReads } from '../../../domain/composeReport';
import type { ReportSpan } from '../../../domain/reportPlan';
import type { ReportWindow } from '../../../domain/reportWindows';
import { alignCurves } from '../../../domain/series';
import type { TrackedAccount } from '../../../domain/account';
import type { CurvesRepository } from '../../../store/curvesRepository';
import type { DelegateViewRepository } from '../../../store/delegateViewRepository';
import type { ReportRecord, ReportRecordsRepository } from '../../../store/reportRecordsRepository';
import { storedSeries } from '../../../store/storedSeries';
import { DEFAULT_COLLECT_SETTINGS } from '../../collect/collectSettings';
import { setTimeout as sleepTimer } from 'node:timers/promises';
import { ChainError } from '../../../chain/errors';
import { currentDeadline } from '../../../shared/deadline';
import { RetryLaterError } from '../../../shared/retryLaterError';

/** What a report is built from, and the record the next report compares with. */
export interface ReportData {
  readonly input: ReportModelInput;
  /** This report's window summaries as received, to store once the report is built; `null` for a summary, or when built from stored data (nothing new to compare with). */
  readonly record: ReportRecord | null;
}

export interface ReportDataRepos {
  readonly curves: Pick<CurvesRepository, 'queryRange'>;
  readonly delegates: Pick<DelegateViewRepository, 'listForAccount'>;
  readonly reportRecords: Pick<ReportRecordsRepository, 'latestBefore'>;
}

/** The chain port the report reads its windows from. */
export type ReportChain = Pick<ChainClient, 'getPortfolio'>;

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
 * Reads what `account`'s report of `span` shows, in one load, then builds its input (`reportInput`).
 * From the store: the curves over the drawdown lookback up to `now` (the flow-adjusted drawdown as of
 * now), the delegates (listed now, and removed since the previous report), and for a daily report
 * the latest report record before its day (the changes; once the chain is given up, the 7- and
 * 30-day metrics). From the chain, one `GET /portfolio` per window of `span` (a day's three, one
 * after the other; a summary's two, together): each window's summary and curves, tried again
 * within the grace of a report due at `dueAt` (`withChainGrace`) and given up after it (the report
 * is then built from stored data); without `dueAt` (forced, CLI) it waits for the chain. A daily
 * report read from the chain returns its record to store.
 */
export async function readReportData(
  deps: ReportDataDeps,
  dueAt: number | undefined,
  account: TrackedAccount,
  span: ReportSpan,
  now: number,
): Promise<ReportData> {
  const { address } = account;
  const grace = chainGraceOf(deps, dueAt);
  const [chain, points, delegates, previous] = await Promise.all([
    withChainGrace<ReportReads['chain']>(
      grace,
      async () => ({ kind: 'chain', windows: await fetchWindows(deps.chain, address, span) }),
      (chainFailedAt) => ({ kind: 'stored', chainFailedAt }),
    ),
    deps.repos.curves.queryRange(address, account.interval, Math.max(0, now - lookbackWindowMs(account.interval, DEFAULT_COLLECT_SETTINGS.lookbackMs)), now),
    deps.repos.delegates.listForAccount(address),
    span.kind === 'day' ? deps.repos.reportRecords.latestBefore(address, account.timezone, span.day.localDate) : null,
  ]);
  const record: ReportRecord | null =
    span.kind === 'day' && chain.kind === 'chain'
      ? {
          address,
          coveredDate: span.day.localDate,
          timeZone: account.timezone,
          savedAt: now,
          windows: span.windows.map((window, i) => ({
            key: window.key,
            fromMs: window.fromMs,
            toMs: window.toMs,
            interval: window.interval,
            summary: chain.windows[i]?.raw ?? null,
          })),
        }
      : null;
  return { record, input: reportInput(account, span, { history: storedSeries(points), delegates, previous: previousReport(previous), chain }, now) };
}

/** The chain's answer for every window of `span`: a day's one after the other (the client's token bucket paces them either way, and a failure stops the rest), a summary's two together. */
async function fetchWindows(chain: ReportChain, address: string, span: ReportSpan): Promise<ChainWindow[]> {
  if (span.kind === 'summary') return Promise.all([fetchWindow(chain, address, span.windows.current), fetchWindow(chain, address, span.windows.previous)]);
  const out: ChainWindow[] = [];
  for (const window of span.windows) out.push(await fetchWindow(chain, address, window));
  return out;
}

/** One `GET /portfolio` for `window`: its summary (none when the chain has no point in it) and its curves. */
async function fetchWindow(chain: ReportChain, address: string, window: ReportWindow): Promise<ChainWindow> {
  const response = await chain.getPortfolio({ account: address, from: window.fromMs, to: window.toMs, interval: window.interval });
  const series = alignCurves(response.equity, response.pnl).filter((p) => p.timestamp >= window.fromMs && p.timestamp <= window.toMs);
  const raw = series.length === 0 ? null : response.summary;
  return { window, raw, summary: raw ? summaryReadings(raw) : null, series };
}

/** A stored report record's summaries, read by the unit rules. */
function previousReport(record: ReportRecord | null): PreviousReport | null {
  if (!record) return null;
  return {
    coveredDate: record.coveredDate,
    windows: record.windows.map((w) => ({ key: w.key, interval: w.interval, summary: w.summary ? summaryReadings(w.summary) : null })),
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
async function withChainGrace<T>(grace: ChainGrace, read: () => Promise<T>, stored: (chainFailedAt: number) => T): Promise<T> {
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
