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

/**
 * Label, unit and meaning of each chain summary field. The chain does not publish its formulas;
 * the descriptions state the usual meaning of each metric. `winRate` is shown in percent like the
 * chain's other rates.
 */
export const SUMMARY_METRICS: Readonly<Record<SummaryField, MetricInfo>> = {
  pnl: m('PnL', 'usd', 'higher', 'Profit and loss from trading over the tracked range, net of deposits and withdrawals.'),
  returnPct: m('Return', 'percent', 'higher', 'Trading return over the tracked range.'),
  avgDailyPnl: m('Average daily PnL', 'percent', 'higher', 'Average result of one day of trading.'),
  maxDrawdownPct: m('Max drawdown (chain)', 'percent', 'lower', "Largest fall from a peak, as the chain computes it."),
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
