import type { TrackedAccount } from '../../domain/account';
import { decisionProgress, type DecisionProgress } from '../../domain/decisionProgress';
import type { KillSwitchState } from '../../domain/killSwitchDecision';
import { killSwitchStateText } from '../../domain/killSwitchStateText';
import type { ProtectiveDecision } from '../../domain/protectiveDecision';
import type { DeskStores } from './deskStores';

/** How many of an account's decisions the page shows, newest first. */
export const DECISIONS_SHOWN = 50;

/** One automatic decision and where it stands. */
export interface DecisionView {
  readonly decision: ProtectiveDecision;
  readonly progress: DecisionProgress;
}

/** The protection section's history: the kill switch's state as `accounts show` words it, and the decisions. */
export interface ProtectionHistory {
  /** `null` when the account has no kill switch (as `accounts show` leaves the line out). */
  readonly killSwitchNow: string | null;
  readonly decisions: readonly DecisionView[];
  /** Whether older decisions exist beyond {@link DECISIONS_SHOWN}. */
  readonly more: boolean;
}

/**
 * Reads `account`'s automatic decisions (dry runs included; one index `Query`, then each
 * decision's units), and words the kill switch's `state` with the settlement of the decision a
 * `revoking` state names, as `status` and `accounts show` do.
 */
export async function protectionHistory(
  stores: Pick<DeskStores, 'decisions'>,
  account: Pick<TrackedAccount, 'address' | 'killSwitch'>,
  state: KillSwitchState | null,
): Promise<ProtectionHistory> {
  const listed = await stores.decisions.listForAccount(account.address, DECISIONS_SHOWN + 1);
  const shown = listed.slice(0, DECISIONS_SHOWN);
  const decisions = await Promise.all(
    shown.map(async (decision) => ({
      decision,
      progress: decisionProgress(decision, decision.dryRun ? new Map() : await stores.decisions.units(decision)),
    })),
  );
  let killSwitchNow: string | null = null;
  if (account.killSwitch !== null) {
    const named = state?.status === 'revoking' ? decisions.find((d) => d.decision.decisionId === state.decisionId)?.progress : undefined;
    killSwitchNow = killSwitchStateText(state, account.address, named?.kind === 'settled' ? named.settlement : null);
  }
  return { killSwitchNow, decisions, more: listed.length > DECISIONS_SHOWN };
}
