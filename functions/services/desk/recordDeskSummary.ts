import type { TrackedAccount } from '../../domain/account';
import { unknownKeyDecisionWorthReading } from '../../domain/recentUnknownKeyDecision';
import type { DeskSummary, DeskSummaryRepository } from '../../store/deskSummaryRepository';
import type { DeskStores } from './deskStores';
import { overviewRow, type OverviewRow } from './overviewRow';

/** The summary to store for an overview row measured at `computedAt`. */
export function summaryOfRow(row: OverviewRow, timezone: string, computedAt: number): DeskSummary {
  return {
    v: 1,
    address: row.account.address,
    interval: row.account.interval,
    timezone,
    computedAt,
    polledAt: row.polledAt,
    lastPollAt: row.lastPollAt,
    asOf: row.asOf,
    equity: row.equity,
    today: { localDate: row.today.localDate, figures: row.today.figures },
    drawdownPct: row.drawdownPct,
    breachedLevels: [...row.breachedLevels],
    killSwitch: row.killSwitch.state,
    ...(unknownKeyDecisionWorthReading(row.unknownKey.latest, computedAt) ? { unknownKeyDecision: row.unknownKey.latest } : {}),
    soonestExpiry: row.soonestExpiry,
    delegates: row.delegates,
    spark: [...row.spark],
  };
}

/**
 * After a poll's writes: measures the account's overview row at `now` from the store, as the
 * overview would (`overviewRow`), and stores it as the account's desk summary, so an overview
 * reads one item per account instead of measuring each.
 */
export async function recordDeskSummary(
  repos: Pick<DeskStores, 'curves' | 'snapshots' | 'alerts' | 'delegates'> & { readonly deskSummaries: Pick<DeskSummaryRepository, 'put'> },
  account: TrackedAccount,
  now: number,
): Promise<void> {
  const row = await overviewRow(repos, account, now);
  await repos.deskSummaries.put(summaryOfRow(row, account.timezone, now));
}
