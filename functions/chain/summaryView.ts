import { ChainResponseShapeError } from './errors';
import { SUMMARY_STRING_FIELDS, type SummaryField } from '../domain/summaryFields';
import { type PortfolioSummary } from '../domain/portfolioSummary';
import { readSummaryValue, type MetricReading } from '../domain/summaryMetrics';

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** One summary value as a number; `percent` tells that the chain wrote it with a trailing `%` (`"12.5%"` is `{ value: 12.5, percent: true }`). */
export interface SummaryNumber {
  value: number;
  percent: boolean;
}

/** Every summary field as a number, with its percent flag. */
export type SummaryView = Record<SummaryField, SummaryNumber>;

function invalid(field: string, value: unknown, problem: string): never {
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : String(value);
  throw new ChainResponseShapeError({ path: field, problem: `${problem}, got ${shown}` });
}

/**
 * Parses a plain decimal string (`"-12.5"`, `"1e-3"`) to a finite number.
 * Throws `ChainResponseShapeError` whose `path` is `field` for anything else, including `"12%"`, `""`, `"NaN"`.
 */
export function parseDecimal(field: string, value: string): number {
  if (typeof value !== 'string' || !DECIMAL.test(value)) invalid(field, value, 'not a decimal number');
  const n = Number(value);
  if (!Number.isFinite(n)) invalid(field, value, 'out of the range of a double');
  return n;
}

/** Parses a decimal string that may end in `%` (surrounding spaces allowed). `"12.5%"` -> `{ value: 12.5, percent: true }`. */
export function parseDecimalOrPercent(field: string, value: string): SummaryNumber {
  if (typeof value !== 'string') invalid(field, value, 'not a string');
  const trimmed = value.trim();
  const percent = trimmed.endsWith('%');
  const digits = percent ? trimmed.slice(0, -1).trimEnd() : trimmed;
  if (!DECIMAL.test(digits)) invalid(field, value, 'not a decimal or percent number');
  return { value: parseDecimal(field, digits), percent };
}

/** The typed view of a summary. Errors name the field as `summary.<field>`. */
export function summaryView(summary: PortfolioSummary): SummaryView {
  const view: Partial<SummaryView> = {};
  for (const field of SUMMARY_STRING_FIELDS) {
    view[field] = parseDecimalOrPercent(`summary.${field}`, summary[field]);
  }
  const trades: unknown = summary.totalTrades;
  if (typeof trades !== 'number' || !Number.isSafeInteger(trades) || trades < 0) {
    invalid('summary.totalTrades', trades, 'not a non-negative integer');
  }
  view.totalTrades = { value: trades, percent: false };
  return view as SummaryView;
}

/** Every summary field as a plain number (`"12.5%"` -> 12.5), for computing deltas. */
export function parseSummary(summary: PortfolioSummary): Record<SummaryField, number> {
  const view = summaryView(summary);
  return Object.fromEntries(Object.entries(view).map(([k, v]) => [k, v.value])) as Record<SummaryField, number>;
}

/**
 * Every summary field read by the unit rules (`readSummaryValue`): a number in the metric's unit
 * (`winRate` `"0.4954"`, `"49.54"` and `"49.54%"` all give 49.54), or the text as received.
 * Throws `ChainResponseShapeError` like `summaryView`.
 */
export function summaryReadings(summary: PortfolioSummary): Record<SummaryField, MetricReading> {
  const view = summaryView(summary);
  return Object.fromEntries(
    Object.entries(view).map(([field, v]) => {
      const key = field as SummaryField;
      return [key, readSummaryValue(key, { ...v, text: String(summary[key]) })];
    }),
  ) as Record<SummaryField, MetricReading>;
}
