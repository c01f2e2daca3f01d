import type { AccountSettings } from './account';
import { dayFigures, type DayFigures } from './dayFigures';
import type { ObservedDelegate } from './delegateAlerts';
import { drawdown, type DrawdownResult } from './drawdown';
import { expiryCountdown, type ExpiryCountdown } from './expiryCountdown';
import type { Interval } from './interval';
import { FROM_CHAIN, type ReportSource } from './reportSource';
import type { ReportWindow, WindowKey } from './reportWindows';
import type { SeriesPoint } from './series';
import type { SummaryField } from './summaryFields';
import { SUMMARY_METRICS, type MetricInfo, type MetricReading } from './summaryMetrics';

/** A summary with every field read by the unit rules (`readSummaryValue`). */
export type SummaryReadings = Readonly<Record<SummaryField, MetricReading>>;

/** What the chain gave for one window of the report, and the same window of the previous report. */
export interface WindowInput {
  window: ReportWindow;
  /** The window's summary; `null` when the chain had no point in it. */
  summary: SummaryReadings | null;
  /** The window's equity and PnL curves at `window.interval`. */
  series: readonly SeriesPoint[];
  /** The summary of the same window in the previous report; `null` for a first report. */
  previous: SummaryReadings | null;
}

export interface ReportModelInput {
  settings: Pick<AccountSettings, 'address' | 'label' | 'timezone'> & { interval: Interval };
  /**
   * The span covered and its bounds: the local day (`localDayBounds`), or a weekly or monthly
   * summary's window (`periodWindows`; `localDate` is then its last day).
   */
  day: { localDate: string; startMs: number; endMs: number };
  /** The windows, the covered span first (`reportWindows`, or the one window of a summary). */
  windows: readonly WindowInput[];
  /** The stored points of the drawdown lookback window up to now: the flow-adjusted drawdown as of now. */
  history: readonly SeriesPoint[];
  delegates: readonly ObservedDelegate[];
  /** Delegates that disappeared since the previous report. */
  removedDelegates?: readonly { address: string; name: string | null; removedAt: number }[];
  now: number;
  /** Where the windows come from; default the chain. */
  source?: ReportSource;
}

/** One window's value of a metric and its change against the same window in the previous report. */
export interface MetricCell {
  /** In the metric's unit; `null` when the chain gave none, or when the value fits no unit rule (`text`). */
  value: number | null;
  /** The value as received, when it fits no unit rule. */
  text: string | null;
  /** `null` when there is nothing to compare with (a first report, a value shown as received). */
  delta: number | null;
}

/** One summary metric with its meaning and a cell per window. */
export interface MetricRow extends MetricInfo {
  key: SummaryField;
  /** In the order of `ReportModel.windows`. */
  cells: MetricCell[];
}

/** A window as the report states it. */
export interface WindowInfo {
  key: WindowKey;
  days: number;
  fromMs: number;
  toMs: number;
  interval: Interval;
  /** First point the chain has in the window (later than `fromMs` when its history starts inside); `null` without data. */
  dataFromMs: number | null;
  /** Whether the previous report had this window (its changes are shown). */
  compared: boolean;
}

export interface DelegateRow {
  address: string;
  name: string | null;
  kind: 'api-key' | 'web-session';
  expiryMs: number | null;
  expiry: ExpiryCountdown;
}

/**
 * One account's report, as plain data; amounts in USD, percentages in percent points, times in ms.
 * Self-contained per account, so a digest of several accounts can hold several of them.
 */
export interface ReportModel {
  /** What the report covers: a local day, or a weekly or monthly summary's window. */
  span: 'day' | 'week' | 'month';
  account: { address: string; label: string | null };
  localDate: string;
  timezone: string;
  /** The covered span (the report day, or the summary's window), local midnight to local midnight. */
  period: { startMs: number; endMs: number };
  generatedAt: number;
  /** The covered span from the chain's curves of exactly that span; `null` when the chain had no point in it. */
  day: DayFigures | null;
  /** Flow-adjusted drawdown as of now (`asOf`), over the stored history; `null` without history. */
  drawdown: DrawdownResult | null;
  /** First stored point the drawdown is measured over. */
  drawdownSince: number | null;
  windows: WindowInfo[];
  metrics: MetricRow[];
  /** What the chart shows: the covered span, or for a `1d` account's daily report the 30-day window (daily points). */
  chart: { window: WindowKey; fromMs: number; toMs: number; series: SeriesPoint[] };
  /** Soonest expiry first; those without expiry last. */
  delegates: DelegateRow[];
  removedDelegates: { address: string; name: string | null; removedAt: number }[];
  /** The chain, or stored data when the chain did not answer (the email says so at the top). */
  source: ReportSource;
}

/** Metrics in reading order: results first, then trade statistics, risk, and activity. */
const METRIC_ORDER = Object.keys(SUMMARY_METRICS) as SummaryField[];

function cell(current: MetricReading | undefined, previous: MetricReading | undefined): MetricCell {
  if (!current) return { value: null, text: null, delta: null };
  if (current.kind === 'as-received') return { value: null, text: current.text, delta: null };
  return { value: current.value, text: null, delta: previous?.kind === 'number' ? current.value - previous.value : null };
}

function metricRows(windows: readonly WindowInput[]): MetricRow[] {
  return METRIC_ORDER.map((key) => ({
    key,
    ...SUMMARY_METRICS[key],
    cells: windows.map((w) => cell(w.summary?.[key], w.previous?.[key])),
  }));
}

function delegateRows(delegates: readonly ObservedDelegate[], now: number): DelegateRow[] {
  const order = (d: ObservedDelegate) => d.expiryMs ?? Infinity;
  return [...delegates]
    .sort((a, b) => order(a) - order(b) || (a.address < b.address ? -1 : 1))
    .map((d) => ({
      address: d.address,
      name: d.name,
      kind: d.isWebClient ? 'web-session' : 'api-key',
      expiryMs: d.expiryMs,
      expiry: expiryCountdown(d.expiryMs, now),
    }));
}

/**
 * Builds one account's report from the chain's windows and the stored history; formatting and
 * rendering happen elsewhere. The day figures come from the chain's curves of the report day
 * (the point at its local midnight to the point at the next one), so they add up to the chain's
 * own figures for that day.
 */
export function buildReportModel(input: ReportModelInput): ReportModel {
  const { day, now } = input;
  const spanWindow = input.windows[0];
  const daySeries = spanWindow?.series ?? [];
  const chartWindow = (input.settings.interval === '1d' ? input.windows.find((w) => w.window.key === '30d') : undefined) ?? spanWindow;
  const spanKey = spanWindow?.window.key;
  return {
    span: spanKey === 'week' || spanKey === 'month' ? spanKey : 'day',
    account: { address: input.settings.address, label: input.settings.label },
    localDate: day.localDate,
    timezone: input.settings.timezone,
    period: { startMs: day.startMs, endMs: day.endMs },
    generatedAt: now,
    day: dayFigures(daySeries, day.startMs, day.endMs),
    drawdown: drawdown(input.history),
    drawdownSince: input.history[0]?.timestamp ?? null,
    windows: input.windows.map(({ window, series, previous }) => ({
      key: window.key,
      days: window.days,
      fromMs: window.fromMs,
      toMs: window.toMs,
      interval: window.interval,
      dataFromMs: series[0]?.timestamp ?? null,
      compared: previous !== null,
    })),
    metrics: metricRows(input.windows),
    chart: chartWindow
      ? { window: chartWindow.window.key, fromMs: chartWindow.window.fromMs, toMs: chartWindow.window.toMs, series: [...chartWindow.series] }
      : { window: 'day', fromMs: day.startMs, toMs: day.endMs, series: [] },
    delegates: delegateRows(input.delegates, now),
    removedDelegates: [...(input.removedDelegates ?? [])].sort((a, b) => a.removedAt - b.removedAt),
    source: input.source ?? FROM_CHAIN,
  };
}
