import type { OverviewRow } from '../../services/desk/overviewRow';
import { protectionPhase, type ProtectionPhase } from './protectionPhase';

/** The overview's sortable columns. */
export const OVERVIEW_COLUMNS = ['account', 'equity', 'today', 'drawdown', 'status', 'protection', 'expiry', 'asof'] as const;
export type OverviewColumn = (typeof OVERVIEW_COLUMNS)[number];
export type SortDirection = 'asc' | 'desc';

/** How the overview is shown: its sort and filter, from the query (`?sort=drawdown&dir=desc&q=desk`). */
export interface OverviewQuery {
  readonly sort: OverviewColumn;
  readonly dir: SortDirection;
  readonly filter: string;
}

/** The default: the deepest drawdown first, as the digest leads with the account that needs attention. */
export const DEFAULT_OVERVIEW_QUERY: OverviewQuery = { sort: 'drawdown', dir: 'desc', filter: '' };

/** The overview query of a request's parameters; anything unknown falls back to the default. */
export function overviewQueryOf(query: URLSearchParams): OverviewQuery {
  const sort = query.get('sort');
  const dir = query.get('dir');
  return {
    sort: (OVERVIEW_COLUMNS as readonly string[]).includes(sort ?? '') ? (sort as OverviewColumn) : DEFAULT_OVERVIEW_QUERY.sort,
    dir: dir === 'asc' || dir === 'desc' ? dir : DEFAULT_OVERVIEW_QUERY.dir,
    filter: (query.get('q') ?? '').trim().slice(0, 100),
  };
}

const STATUS_ORDER: Readonly<Record<OverviewRow['status'], number>> = { failing: 3, stale: 2, new: 1, ok: 0 };

/** The protection column's order, worst first (`protectionPhase`): a firing, a crossing pending, one held from before tracking, a dry run's firing, armed, dry run, off. */
const PHASE_RANK: Readonly<Record<ProtectionPhase, number>> = { fired: 6, pending: 5, held: 4, 'dry-run-fired': 3, armed: 2, 'dry-run': 1, off: 0 };

const name = (row: OverviewRow) => (row.account.label ?? row.account.address).toLowerCase();

/** The value a column sorts by (missing figures last in either direction). */
function keyOf(row: OverviewRow, column: OverviewColumn): number | string | null {
  switch (column) {
    case 'account':
      return name(row);
    case 'equity':
      return row.equity;
    case 'today':
      return row.today.figures?.pnl ?? null;
    case 'drawdown':
      return row.drawdownPct;
    case 'status':
      return STATUS_ORDER[row.status];
    case 'protection':
      return PHASE_RANK[protectionPhase(row.killSwitch)];
    case 'expiry':
      return row.soonestExpiry?.expiryMs ?? null;
    case 'asof':
      return row.asOf;
  }
}

/** The rows `query` shows: those whose label or address contains the filter (any case), sorted by its column (ties by name). */
export function shownRows(rows: readonly OverviewRow[], query: OverviewQuery): OverviewRow[] {
  const needle = query.filter.toLowerCase();
  const kept = needle === '' ? [...rows] : rows.filter((r) => name(r).includes(needle) || r.account.address.toLowerCase().includes(needle));
  const sign = query.dir === 'asc' ? 1 : -1;
  return kept.sort((a, b) => {
    const ka = keyOf(a, query.sort);
    const kb = keyOf(b, query.sort);
    if (ka === null || kb === null) return ka === kb ? name(a).localeCompare(name(b)) : ka === null ? 1 : -1;
    const order = typeof ka === 'string' || typeof kb === 'string' ? String(ka).localeCompare(String(kb)) : ka - kb;
    return sign * order || name(a).localeCompare(name(b));
  });
}
