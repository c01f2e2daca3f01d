import type { ShownStatus } from '../../domain/shownStatus';
import { SHOWN_STATUSES } from '../../domain/shownStatus';
import { mapConcurrent } from '../../shared/concurrency';
import type { DeskStores } from './deskStores';
import { accountsOf, type DeskScopeDeps, type DeskViewer } from './deskViewer';
import { overviewRow, type OverviewRow } from './overviewRow';

/** How many accounts' reads are in flight at once for one overview. */
export const OVERVIEW_CONCURRENCY = 16;

/** The overview of a viewer's accounts: one row each, and how many are in each status. */
export interface DeskOverview {
  readonly rows: readonly OverviewRow[];
  readonly counts: Readonly<Record<ShownStatus, number>>;
}

/** Every account `viewer` sees, as overview rows read at `now` (`overviewRow`), with the counts by status. */
export async function deskOverview(deps: DeskScopeDeps & { readonly stores: DeskStores }, viewer: DeskViewer, now: number): Promise<DeskOverview> {
  const accounts = await accountsOf(deps, viewer);
  const rows = await mapConcurrent(accounts, OVERVIEW_CONCURRENCY, (account) => overviewRow(deps.stores, account, now));
  const counts = Object.fromEntries(SHOWN_STATUSES.map((s) => [s, rows.filter((r) => r.status === s).length])) as Record<ShownStatus, number>;
  return { rows, counts };
}
