import type { TrackedAccount } from '../../domain/account';
import { DRAWDOWN_RULE, drawdownStateSchema } from '../../domain/drawdownState';
import { recipientKey, recipientSnoozesStateSchema } from '../../domain/recipientSnoozes';
import { mapConcurrent } from '../../shared/concurrency';
import type { AccountHistoryRepository } from '../../store/accountHistoryRepository';
import type { AlertStateRepository } from '../../store/alertStateRepository';
import { RECIPIENT_SNOOZES_RULE } from '../../store/alertStateRepository';
import { OVERVIEW_CONCURRENCY } from './deskOverview';
import type { DeskStores } from './deskStores';
import { accountFor, accountsOf, type DeskScopeDeps, type DeskViewer } from './deskViewer';

/** A drawdown level that fired and has not recovered yet. */
export interface OpenAlert {
  readonly account: TrackedAccount;
  readonly level: number;
  readonly breachedAt: number | null;
  readonly lastSentAt: number | null;
}

/** One of the viewer's own snoozes still running. */
export interface OwnSnooze {
  readonly account: TrackedAccount;
  readonly until: number;
}

/** The alerts page: open alerts across the viewer's accounts (worst first) and the viewer's own running snoozes (soonest end first). */
export interface DeskAlerts {
  readonly open: readonly OpenAlert[];
  readonly snoozes: readonly OwnSnooze[];
}

/** Worst first: the deepest level, then the one breached earliest. */
function worstFirst(a: OpenAlert, b: OpenAlert): number {
  return b.level - a.level || (a.breachedAt ?? Infinity) - (b.breachedAt ?? Infinity);
}

/**
 * Reads the alerts page of `viewer` at `now`: one `Query` of the alert states per account it
 * sees (the drawdown levels' states and the per-recipient snoozes are items of it), no curve.
 */
export async function deskAlerts(deps: DeskScopeDeps & { readonly stores: Pick<DeskStores, 'alerts'> }, viewer: DeskViewer, now: number): Promise<DeskAlerts> {
  const accounts = await accountsOf(deps, viewer);
  const me = recipientKey(viewer.email);
  const perAccount = await mapConcurrent(accounts, OVERVIEW_CONCURRENCY, async (account) => {
    const rules = await deps.stores.alerts.listWithControls(account.address);
    const state = (name: string) => rules.find((r) => r.rule === name)?.state;
    const levels = drawdownStateSchema.safeParse(state(DRAWDOWN_RULE));
    const open: OpenAlert[] = levels.success
      ? Object.entries(levels.data.levels)
          .filter(([level, s]) => s.status === 'breached' && account.drawdownThresholds.includes(Number(level)))
          .map(([level, s]) => ({ account, level: Number(level), breachedAt: s.breachedAt, lastSentAt: s.lastSentAt }))
      : [];
    const snoozes = recipientSnoozesStateSchema.safeParse(state(RECIPIENT_SNOOZES_RULE));
    const until = snoozes.success ? snoozes.data.recipients[me] : undefined;
    return { open, snooze: until !== undefined && until > now ? { account, until } : null };
  });
  return {
    open: perAccount.flatMap((a) => a.open).sort(worstFirst),
    snoozes: perAccount.flatMap((a) => (a.snooze ? [a.snooze] : [])).sort((a, b) => a.until - b.until),
  };
}

/** What lifting a snooze from the desk came to. */
export type LiftOutcome = { kind: 'lifted' } | { kind: 'not-running' } | { kind: 'not-found' };

/**
 * Lifts the viewer's own snooze of `address` (never another recipient's, never the account-wide
 * one): `not-found` when the viewer does not receive the account, as every desk read answers.
 * A lift is recorded in the account's alert history.
 */
export async function liftOwnSnooze(
  deps: Pick<DeskScopeDeps, 'accounts'> & {
    readonly snoozes: Pick<AlertStateRepository, 'liftRecipientSnoozes'>;
    readonly history: Pick<AccountHistoryRepository, 'recordAlerts'>;
  },
  viewer: DeskViewer,
  address: string,
  now: number,
): Promise<LiftOutcome> {
  const account = await accountFor(deps, viewer, address);
  if (!account) return { kind: 'not-found' };
  const lifted = await deps.snoozes.liftRecipientSnoozes(account.address, viewer.email, now);
  if (lifted.length === 0) return { kind: 'not-running' };
  await deps.history.recordAlerts(account.address, [
    { kind: 'snooze-lifted', scope: { kind: 'recipient', email: viewer.email }, by: `${viewer.email} (desk page)`, at: now },
  ]);
  return { kind: 'lifted' };
}
