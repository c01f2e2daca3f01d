import type { TrackedAccount } from '../functions/domain/account';
import type { AlertState } from '../functions/store/alertStateRepository';
import { RECIPIENT_SNOOZES_RULE, SNOOZE_RULE } from '../functions/store/alertStateRepository';
import { activeSnoozes, recipientSnoozesStateSchema } from '../functions/domain/recipientSnoozes';
import { DRAWDOWN_RULE } from '../functions/services/collect/evaluateDrawdown';
import { drawdownStateSchema, snoozeStateSchema } from '../functions/domain/drawdownState';

/** A running snooze of an account's drawdown alerts: of every recipient (`all`), or of one recipient. */
export interface SnoozeRow {
  readonly account: string;
  readonly label: string | null;
  readonly who: 'all' | string;
  readonly until: number;
}

/** A drawdown level that is breached now, since when, and the drawdown then and now. */
export interface BreachRow {
  readonly account: string;
  readonly label: string | null;
  readonly level: number;
  readonly since: number | null;
  /** The drawdown when the breach began, percent; `null` for a breach recorded before this was kept. */
  readonly atBreachPct: number | null;
  /** The drawdown now, from the stored points (as `status` shows it), percent; `null` without enough points. */
  readonly nowPct: number | null;
}

/** Whether the stored alert states hold an open breach (then `alertsOverview` needs the drawdown now). */
export function hasOpenBreach(rules: readonly Pick<AlertState, 'rule' | 'state'>[]): boolean {
  const levels = drawdownStateSchema.safeParse(rules.find((r) => r.rule === DRAWDOWN_RULE)?.state);
  return levels.success && Object.values(levels.data.levels).some((s) => s.status === 'breached');
}

/**
 * The running snoozes and open breaches of one account, from its stored alert states, at `now`;
 * `nowPct` is the account's drawdown now (`currentDrawdown`), shown beside each breach.
 */
export function alertsOverview(
  account: Pick<TrackedAccount, 'address' | 'label'>,
  rules: readonly Pick<AlertState, 'rule' | 'state'>[],
  now: number,
  nowPct: number | null,
): { snoozes: SnoozeRow[]; breaches: BreachRow[] } {
  const ref = { account: account.address as string, label: account.label };
  const stateOf = (rule: string) => rules.find((r) => r.rule === rule)?.state;
  const snoozes: SnoozeRow[] = [];
  const wide = snoozeStateSchema.safeParse(stateOf(SNOOZE_RULE));
  if (wide.success && wide.data.until > now) snoozes.push({ ...ref, who: 'all', until: wide.data.until });
  const perRecipient = recipientSnoozesStateSchema.safeParse(stateOf(RECIPIENT_SNOOZES_RULE));
  if (perRecipient.success) {
    const running = Object.entries(activeSnoozes(perRecipient.data.recipients, now)).sort(([a], [b]) => a.localeCompare(b));
    for (const [email, until] of running) snoozes.push({ ...ref, who: email, until });
  }
  const levels = drawdownStateSchema.safeParse(stateOf(DRAWDOWN_RULE));
  const breaches = levels.success
    ? Object.entries(levels.data.levels)
        .filter(([, s]) => s.status === 'breached')
        .map(([level, s]) => ({ ...ref, level: Number(level), since: s.breachedAt, atBreachPct: s.breachedPct ?? null, nowPct }))
        .sort((a, b) => a.level - b.level)
    : [];
  return { snoozes, breaches };
}
