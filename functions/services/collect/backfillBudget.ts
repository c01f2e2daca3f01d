import { INTERVAL_MS, type Interval } from '../../domain/interval';
import type { Settings } from '../../config/settings';
import { collectSettingsFrom } from './collectSettings';

/** Share of the chain's request budget that one-off polls (backfills) may take; the rest is for the polls that are due. */
export const BACKFILL_SHARE = 0.25;

/** How many chain requests the one-off polls queued by one dispatch run (one minute) may cost together. */
export interface BackfillBudget {
  readonly requestsPerRun: number;
  readonly backfillMs: number;
  readonly maxPointsPerRequest: number;
}

/** Chain requests of one first poll at `interval`: the curve chunks of the backfill window, the summary and the delegates. */
export function backfillRequests(interval: Interval, budget: Pick<BackfillBudget, 'backfillMs' | 'maxPointsPerRequest'>): number {
  const span = INTERVAL_MS[interval] * budget.maxPointsPerRequest + 1;
  return Math.floor(budget.backfillMs / span) + 1 + 2;
}

/** `BACKFILL_SHARE` of a minute of `CHAIN_RPS`, with the collect settings' backfill window. */
export function backfillBudgetFrom(settings: Settings, runEveryMs = 60_000): BackfillBudget {
  const collect = collectSettingsFrom(settings);
  return {
    requestsPerRun: Math.max(1, Math.floor(settings.CHAIN_RPS * (runEveryMs / 1_000) * BACKFILL_SHARE)),
    backfillMs: collect.backfillMs,
    maxPointsPerRequest: collect.maxPointsPerRequest,
  };
}
