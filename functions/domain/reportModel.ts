import type { SummaryField } from './summaryFields';
import type { AccountSettings } from './account';
import { dayFigures, type DayFigures } from './dayFigures';
import type { ObservedDelegate } from './delegateAlerts';
import { drawdown, type DrawdownResult } from './drawdown';
import { expiryCountdown, type ExpiryCountdown } from './expiryCountdown';
import type { SeriesPoint } from './series';
import { summaryDelta, type SummaryValues } from './summaryDelta';
import { SUMMARY_METRICS, type MetricInfo } from './summaryMetrics';

export interface ReportModelInput {
  settings: Pick<AccountSettings, 'address' | 'label' | 'timezone'>;
  /** The local day covered and its bounds (`localDayBounds`). */
  day: { localDate: string; startMs: number; endMs: number };
  /** Points of the day; include the last point at or before the day's start to measure from it. */
  daySeries: readonly SeriesPoint[];
  /** The points of the drawdown lookback window, for drawdown. */
  history: readonly SeriesPoint[];
  /** When tracking started (defaults to the first point of `history`). */
  trackingSince?: number;
  previousSummary: SummaryValues | null;
  currentSummary: SummaryValues | null;
  delegates: readonly ObservedDelegate[];
  /** Delegates that disappeared since the previous report. */
  removedDelegates?: readonly { address: string; name: string | null; removedAt: number }[];
  now: number;
}

/** One summary metric with its meaning and its change since the previous report. */
export interface MetricRow extends MetricInfo {
  key: SummaryField;
  value: number | null;
  delta: number | null;
}

export interface DelegateRow {
  address: string;
  name: string | null;
  kind: 'api-key' | 'web-session';
  expiryMs: number | null;
  expiry: ExpiryCountdown;
}

/** The daily report as plain data; amounts in USD, percentages in percent points, times in ms. */
export interface ReportModel {
  account: { address: string; label: string | null };
  localDate: string;
  timezone: string;
  period: { startMs: number; endMs: number };
  generatedAt: number;
  trackingSince: number | null;
  /** `null` when no point was collected during the day. */
  day: DayFigures | null;
  /** Flow-adjusted drawdown over the whole history; `null` without history. */
  drawdown: DrawdownResult | null;
  metrics: MetricRow[];
  /** Soonest expiry first; those without expiry last. */
  delegates: DelegateRow[];
  removedDelegates: { address: string; name: string | null; removedAt: number }[];
}

/** Metrics in reading order: results first, then trade statistics, risk, and activity. */
const METRIC_ORDER = Object.keys(SUMMARY_METRICS) as SummaryField[];

function metricRows(previous: SummaryValues | null, current: SummaryValues | null): MetricRow[] {
  const delta = current ? summaryDelta(previous, current) : null;
  return METRIC_ORDER.map((key) => ({
    key,
    ...SUMMARY_METRICS[key],
    value: current?.[key] ?? null,
    delta: delta?.[key] ?? null,
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

/** Builds the daily report's data from stored history; formatting and rendering happen elsewhere. */
export function buildReportModel(input: ReportModelInput): ReportModel {
  const { day, now } = input;
  const baseline = input.daySeries.some((p) => p.timestamp <= day.startMs)
    ? []
    : input.history.filter((p) => p.timestamp <= day.startMs).slice(-1);
  return {
    account: { address: input.settings.address, label: input.settings.label },
    localDate: day.localDate,
    timezone: input.settings.timezone,
    period: { startMs: day.startMs, endMs: day.endMs },
    generatedAt: now,
    trackingSince: input.trackingSince ?? input.history[0]?.timestamp ?? null,
    day: dayFigures([...baseline, ...input.daySeries], day.startMs, day.endMs),
    drawdown: drawdown(input.history),
    metrics: metricRows(input.previousSummary, input.currentSummary),
    delegates: delegateRows(input.delegates, now),
    removedDelegates: [...(input.removedDelegates ?? [])].sort((a, b) => a.removedAt - b.removedAt),
  };
}
