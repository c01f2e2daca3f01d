import type { PortfolioResponse } from '../../../functions/chain/schemas';
import type { ModelAccount } from '../model/modelAccount';
import { S, STRIDE } from '../model/state';
import { usd } from './format';
import { INTERVAL_LENGTHS } from './intervals';
import type { PortfolioQuery } from './query';
import { summarize } from './summarize';

/**
 * The `GET /portfolio` response for an account (undefined: no history). Points sit on multiples
 * of the interval inside [from, to], both inclusive, clipped to [history start, now];
 * `from = 0` means all history and `to = 0` the latest snapshot. A bad print (`ModelAccount.addPrint`)
 * moves its minute's curve point only.
 */
export function buildPortfolio(account: ModelAccount | undefined, query: PortfolioQuery, nowMs: number): PortfolioResponse {
  const intervalMs = INTERVAL_LENGTHS[query.interval];
  const low = account === undefined ? 0 : Math.max(query.from, account.historyStartMs);
  const high = query.to === 0 ? nowMs : Math.min(query.to, nowMs);
  const firstPoint = Math.ceil(low / intervalMs) * intervalMs;
  const lastPoint = Math.floor(high / intervalMs) * intervalMs;
  const zero = new Float64Array(STRIDE);
  if (account === undefined || firstPoint > lastPoint) {
    return { equity: [], pnl: [], summary: summarize({ equity: [], pnl: [], first: zero, last: zero, intervalMs }) };
  }

  const equityValues: number[] = [];
  const pnlValues: number[] = [];
  const equity: PortfolioResponse['equity'] = [];
  const pnl: PortfolioResponse['pnl'] = [];
  account.forEachSnapshot(firstPoint, intervalMs, lastPoint, nowMs, (timestamp, data, offset) => {
    const trueEquity = data[offset + S.equity] ?? 0;
    const printed = (trueEquity * account.printAt(timestamp)) / 100;
    const e = trueEquity + printed;
    const p = (data[offset + S.pnl] ?? 0) + printed;
    equityValues.push(e);
    pnlValues.push(p);
    equity.push({ timestamp, value: usd(e) });
    pnl.push({ timestamp, value: usd(p) });
  });
  const first = account.snapshotAt(firstPoint, nowMs);
  const last = account.snapshotAt(lastPoint, nowMs);
  return { equity, pnl, summary: summarize({ equity: equityValues, pnl: pnlValues, first, last, intervalMs }) };
}
