import type { SummaryField } from './summaryFields';

/** How a metric's number is to be read. Percentages are in percent points (`12.5` is 12.5%). */
export type MetricUnit = 'usd' | 'percent' | 'ratio' | 'count';

/** Which direction of change is good news. */
export type MetricDirection = 'higher' | 'lower' | 'neutral';

/** What a summary field means, for people. */
export interface MetricInfo {
  label: string;
  description: string;
  unit: MetricUnit;
  better: MetricDirection;
}

const m = (label: string, unit: MetricUnit, better: MetricDirection, description: string): MetricInfo => ({ label, description, unit, better });

/** The name of the chain's drawdown figure, everywhere it is shown. */
export const CHAIN_DRAWDOWN_LABEL = 'Max drawdown reported by the chain (sampled)';
/** The name of the service's own drawdown (flow-adjusted, from the stored curves), everywhere it is shown. */
export const TRADING_DRAWDOWN_LABEL = 'Drawdown (trading, flow-adjusted)';
/**
 * Label, unit and meaning of each chain summary field. The chain does not publish its formulas;
 * the descriptions state the usual meaning of each metric. How a received value becomes a number
 * in the metric's unit is `readSummaryValue`.
 */
export const SUMMARY_METRICS: Readonly<Record<SummaryField, MetricInfo>> = {
  pnl: m('PnL', 'usd', 'higher', 'Profit and loss from trading over the window, net of deposits and withdrawals.'),
  returnPct: m('Return', 'percent', 'higher', 'Trading return over the window.'),
  avgDailyPnl: m('Average daily PnL', 'percent', 'higher', 'Average result of one day of trading.'),
  maxDrawdownPct: m(
    CHAIN_DRAWDOWN_LABEL,
    'percent',
    'lower',
    'Largest fall from a peak within the window, as the chain computes it from its points at the sampling the report states.',
  ),
  winRate: m('Win rate', 'percent', 'higher', 'Share of closed trades that made money.'),
  wins: m('Winning trades', 'count', 'neutral', 'Number of closed trades that made money.'),
  losses: m('Losing trades', 'count', 'neutral', 'Number of closed trades that lost money.'),
  averageWin: m('Average win', 'usd', 'higher', 'Average profit of a winning trade.'),
  averageLoss: m('Average loss', 'usd', 'neutral', 'Average loss of a losing trade.'),
  profitFactor: m('Profit factor', 'ratio', 'higher', 'Gross profit divided by gross loss; above 1 means the winners outweigh the losers.'),
  sharpeRatio: m('Sharpe ratio', 'ratio', 'higher', 'Return per unit of volatility; higher means steadier gains.'),
  pnlVolatilityPct: m('Volatility', 'percent', 'lower', 'How much the PnL swings from period to period, relative to the account.'),
  pnlVolatilityUsd: m('Volatility (USD)', 'usd', 'lower', 'How much the PnL swings from period to period, in dollars.'),
  longPnl: m('Long PnL', 'usd', 'higher', 'PnL from long positions.'),
  shortPnl: m('Short PnL', 'usd', 'higher', 'PnL from short positions.'),
  totalFunding: m('Funding', 'usd', 'higher', 'Funding payments received (positive) or paid (negative) on open positions.'),
  volume: m('Volume', 'usd', 'neutral', 'Notional value traded.'),
  totalTrades: m('Trades', 'count', 'neutral', 'Number of trades.'),
};

/** A summary value as received: its number, whether it ended in `%`, and its text. */
export interface ReceivedValue {
  value: number;
  percent: boolean;
  text: string;
}

/**
 * A summary value read by the unit rules: a number in the metric's unit (`percent` in percent
 * points), or, when no rule fits, the text as received (never rescaled).
 */
export type MetricReading = { kind: 'number'; value: number } | { kind: 'as-received'; text: string };

/**
 * Reads one summary value by rule, never by guess:
 * - a value ending in `%` is a percent: percent points for a percent metric; on a USD, ratio or
 *   count metric it fits no rule;
 * - `winRate` without `%` is a fraction when it lies in 0..1 (`0.4954` is 49.54%), otherwise a
 *   percent when it lies in 1..100 (`49.54`); anything else fits no rule;
 * - another percent metric without `%` (`returnPct: "12.5"`) fits no rule: the spec names no unit;
 * - USD, ratio and count metrics without `%` are taken as they are.
 * A value that fits no rule is shown as received.
 */
export function readSummaryValue(field: SummaryField, received: ReceivedValue): MetricReading {
  const unit = SUMMARY_METRICS[field].unit;
  const asReceived: MetricReading = { kind: 'as-received', text: received.text.trim() };
  const { value, percent } = received;
  if (unit !== 'percent') return percent ? asReceived : { kind: 'number', value };
  if (percent) return { kind: 'number', value };
  if (field === 'winRate') {
    if (value >= 0 && value <= 1) return { kind: 'number', value: value * 100 };
    if (value > 1 && value <= 100) return { kind: 'number', value };
  }
  return asReceived;
}
