import { SUMMARY_STRING_FIELDS, type SummaryStringField } from '../../../functions/domain/summaryFields';
import { type PortfolioSummary } from '../../../functions/domain/portfolioSummary';
import type { StoredCurvePoint } from '../../../functions/store/curvesRepository';
import type { DelegateView } from '../../../functions/store/delegateViewRepository';

const HOUR = 3_600_000;

/** A summary as the chain sends it: every field `0` unless given. */
export function summary(values: Partial<Record<SummaryStringField, string>> & { totalTrades?: number } = {}): PortfolioSummary {
  const { totalTrades = 0, ...strings } = values;
  return { ...(Object.fromEntries(SUMMARY_STRING_FIELDS.map((f) => [f, strings[f] ?? '0'])) as Record<SummaryStringField, string>), totalTrades };
}

/** Hourly points from `fromMs` to `toMs` (inclusive): equity and PnL as the given functions of time. */
export function hourlyPoints(fromMs: number, toMs: number, equity: (t: number) => number, pnl: (t: number) => number): StoredCurvePoint[] {
  const points: StoredCurvePoint[] = [];
  for (let t = fromMs; t <= toMs; t += HOUR) points.push({ ts: t, equity: equity(t).toFixed(2), pnl: pnl(t).toFixed(2) });
  return points;
}

/** A delegate view as collection stores it. */
export function delegateView(address: string, delegate: string, overrides: Partial<DelegateView> = {}): DelegateView {
  return {
    address,
    delegate,
    name: 'market-maker',
    expiryMs: null,
    isWebClient: false,
    firstSeenAt: 0,
    lastSeenAt: 0,
    warningsSent: [],
    expiredNoticeSent: false,
    removedAt: null,
    generation: 1,
    ...overrides,
  };
}
