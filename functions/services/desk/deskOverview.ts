import type { ShownStatus } from '../../domain/shownStatus';
import { SHOWN_STATUSES } from '../../domain/shownStatus';
import { decisionSettlement } from '../../domain/decisionSettlement';
import { killSwitchProgress } from '../../domain/killSwitchProgress';
import {
  mostUrgentUnknownKeyDecision,
  recentUnknownKeyDecision,
  unknownKeyDecisionRefs,
  unknownKeyDecisionWorthReading,
} from '../../domain/recentUnknownKeyDecision';
import { mapConcurrent } from '../../shared/concurrency';
import type { DeskStores } from './deskStores';
import { accountsOf, type DeskScopeDeps, type DeskViewer } from './deskViewer';
import { overviewRow, type OverviewRow } from './overviewRow';
import { summaryRow } from './summaryRow';

/** How many accounts' reads are in flight at once for one overview. */
export const OVERVIEW_CONCURRENCY = 16;

/** The overview of a viewer's accounts: one row each, and how many are in each status. */
export interface DeskOverview {
  readonly rows: readonly OverviewRow[];
  readonly counts: Readonly<Record<ShownStatus, number>>;
}

/**
 * Every account `viewer` sees, as overview rows at `now`, with the counts by status: each from the
 * account's stored summary (`summaryRow`; one `BatchGetItem` per 100 accounts), or, for an account
 * without a usable one (never polled since the summaries exist, a new local day it cannot tell),
 * measured from the store (`overviewRow`).
 */
export async function deskOverview(deps: DeskScopeDeps & { readonly stores: DeskStores }, viewer: DeskViewer, now: number): Promise<DeskOverview> {
  const accounts = await accountsOf(deps, viewer);
  const summaries = await deps.stores.summaries.getMany(accounts.map((a) => a.address));
  const rows = await mapConcurrent(accounts, OVERVIEW_CONCURRENCY, async (account) => {
    const summary = summaries.get(account.address);
    const row = (summary ? summaryRow(account, summary, now) : null) ?? (await overviewRow(deps.stores, account, now));
    return withUnknownKeyDecision(deps.stores, await withFiringProgress(deps.stores, row), now);
  });
  const counts = Object.fromEntries(SHOWN_STATUSES.map((s) => [s, rows.filter((r) => r.status === s).length])) as Record<ShownStatus, number>;
  return { rows, counts };
}

/**
 * A row whose kill switch fired with a queued decision (`revoking`), with what became of its keys
 * (its decision and units: two reads, for such rows only), so the overview tells a refused or done
 * firing from one still revoking, as the account page does.
 */
async function withFiringProgress(stores: Pick<DeskStores, 'decisions'>, row: OverviewRow): Promise<OverviewRow> {
  const state = row.killSwitch.state;
  if (row.killSwitch.levelPct === null || state?.status !== 'revoking') return row;
  const read = await decisionWithUnits(stores, state.decisionId);
  if (read === null) return row;
  return { ...row, killSwitch: { ...row.killSwitch, progress: killSwitchProgress(decisionSettlement(read.decision, read.units)) } };
}

/**
 * A row whose account made an unknown-key decision recently enough to be shown
 * (`unknownKeyDecisionWorthReading`: its id and time are on the summary or the alert states), with
 * where it stands (each decision kept and its unit: two reads by key a decision, for such rows
 * only), so a desk sees a key revoked automatically, or not revoked, without opening the account.
 * Of several, the most urgent shows (`mostUrgentUnknownKeyDecision`): a key not revoked is not
 * hidden behind a later one that was.
 */
async function withUnknownKeyDecision(stores: Pick<DeskStores, 'decisions'>, row: OverviewRow, now: number): Promise<OverviewRow> {
  const latest = row.unknownKey.latest;
  if (!unknownKeyDecisionWorthReading(latest, now)) return row;
  // The latest and the earlier ones kept beside it (several only after several unknown keys within three days), read together.
  const recent = await Promise.all(
    unknownKeyDecisionRefs(latest, now).map(async (ref) => {
      const read = await decisionWithUnits(stores, ref.decisionId);
      return read === null ? null : recentUnknownKeyDecision(read.decision, read.units, now);
    }),
  );
  return { ...row, unknownKey: { latest, recent: mostUrgentUnknownKeyDecision(recent) } };
}

/** A decision by id and its units (two reads by key); `null` when no such decision is stored. */
async function decisionWithUnits(stores: Pick<DeskStores, 'decisions'>, decisionId: string) {
  const decision = await stores.decisions.get(decisionId);
  return decision === null ? null : { decision, units: await stores.decisions.units(decision) };
}
