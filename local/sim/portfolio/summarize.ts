import type { PortfolioSummary } from '../../../functions/domain/portfolioSummary';
import { S } from '../model/state';
import { cents, fixed, percent, usd } from './format';

/** What the summary of a range is computed from: the curve points and the snapshots at both ends. */
export interface SummaryInput {
  equity: readonly number[];
  pnl: readonly number[];
  first: Float64Array;
  last: Float64Array;
  intervalMs: number;
}

const DAY_MS = 86_400_000;

/**
 * The summary of a range, consistent with its curves: `pnl` is last minus first point of the PnL
 * curve; returns are per point, `(pnl_i - pnl_{i-1}) / equity_{i-1}`, so deposits and
 * withdrawals are not returns; `returnPct` compounds them, `maxDrawdownPct` is the largest fall
 * of that index from its peak (a positive percentage); trade counters are totals over the range.
 * `winRate` is a fraction (0..1); `profitFactor` is gross wins over gross losses, "0" when there
 * are no losses; `averageLoss` is negative.
 */
export function summarize(input: SummaryInput): PortfolioSummary {
  const { equity, pnl, first, last, intervalMs } = input;
  const returns: number[] = [];
  const pnlSteps: number[] = [];
  let index = 1;
  let peak = 1;
  let maxDrawdown = 0;
  for (let i = 1; i < pnl.length; i += 1) {
    const step = (pnl[i] ?? 0) - (pnl[i - 1] ?? 0);
    const base = equity[i - 1] ?? 0;
    const r = base > 0 ? step / base : 0;
    pnlSteps.push(step);
    returns.push(r);
    index *= 1 + r;
    peak = Math.max(peak, index);
    maxDrawdown = Math.max(maxDrawdown, peak > 0 ? 1 - index / peak : 0);
  }
  const delta = (field: number): number => (last[field] ?? 0) - (first[field] ?? 0);
  const wins = Math.round(delta(S.wins));
  const losses = Math.round(delta(S.losses));
  const sumWin = delta(S.sumWin);
  const sumLoss = delta(S.sumLoss);
  const meanReturn = mean(returns);
  const returnSd = standardDeviation(returns);
  const pointsPerDay = DAY_MS / intervalMs;
  const pnlCents = pnl.length > 0 ? cents(pnl[pnl.length - 1] ?? 0) - cents(pnl[0] ?? 0) : 0;

  return {
    averageLoss: usd(losses > 0 ? sumLoss / losses : 0),
    averageWin: usd(wins > 0 ? sumWin / wins : 0),
    avgDailyPnl: percent(meanReturn * pointsPerDay),
    longPnl: usd(delta(S.longPnl)),
    losses: String(losses),
    maxDrawdownPct: percent(maxDrawdown),
    pnl: usd(pnlCents / 100),
    pnlVolatilityPct: percent(returnSd),
    pnlVolatilityUsd: usd(standardDeviation(pnlSteps)),
    profitFactor: fixed(sumLoss < 0 ? sumWin / -sumLoss : 0, 4),
    returnPct: percent(index - 1),
    sharpeRatio: fixed(returnSd > 0 ? (meanReturn / returnSd) * Math.sqrt(365 * pointsPerDay) : 0, 4),
    shortPnl: usd(delta(S.shortPnl)),
    totalFunding: usd(delta(S.funding)),
    totalTrades: Math.round(delta(S.trades)),
    volume: usd(delta(S.volume)),
    winRate: fixed(wins + losses > 0 ? wins / (wins + losses) : 0, 4),
    wins: String(wins),
  };
}

function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Sample standard deviation; 0 for fewer than two values. */
function standardDeviation(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  let squares = 0;
  for (const v of values) squares += (v - m) ** 2;
  return Math.sqrt(squares / (values.length - 1));
}
