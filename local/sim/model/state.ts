/** Milliseconds per simulated sample (the model's resolution). */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const MINUTES_PER_HOUR = 60;
export const HOURS_PER_DAY = 24;

/**
 * Layout of one account snapshot in a Float64Array. Counters are cumulative since the start of
 * history, so the total over a range is the difference of two snapshots.
 */
export const S = {
  equity: 0,
  /** Cumulative PnL: equity change net of deposits and withdrawals. */
  pnl: 1,
  longPnl: 2,
  shortPnl: 3,
  funding: 4,
  volume: 5,
  trades: 6,
  wins: 7,
  losses: 8,
  sumWin: 9,
  sumLoss: 10,
  /** PnL of the open position since it was last closed. */
  openPnl: 11,
  /** +1 long, -1 short. */
  side: 12,
  /** Cumulative deposits minus withdrawals. */
  netFlows: 13,
} as const;

/** Number of numbers in one snapshot. */
export const STRIDE = 14;

/** Adds trading PnL to a snapshot in place, booking it to the side of the open position. */
export function addTradingPnl(state: Float64Array, amount: number): void {
  state[S.equity] = (state[S.equity] ?? 0) + amount;
  state[S.pnl] = (state[S.pnl] ?? 0) + amount;
  state[S.openPnl] = (state[S.openPnl] ?? 0) + amount;
  const book = (state[S.side] ?? 1) > 0 ? S.longPnl : S.shortPnl;
  state[book] = (state[book] ?? 0) + amount;
}
