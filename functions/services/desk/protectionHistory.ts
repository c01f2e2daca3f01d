import type { TrackedAccount } from '../../domain/account';
import { decisionProgress, type DecisionProgress } from '../../domain/decisionProgress';
import type { KillSwitchState } from '../../domain/killSwitchDecision';
import { killSwitchStateText } from '../../domain/killSwitchStateText';
import { killSwitchProgress, type KillSwitchProgress } from '../../domain/killSwitchProgress';
import type { ProtectiveDecision } from '../../domain/protectiveDecision';
import type { DeskStores } from './deskStores';

/** How many of an account's decisions a page shows, newest first (older ones a page further). */
export const DECISIONS_PAGE = 50;

/** One automatic decision and where it stands. */
export interface DecisionView {
  readonly decision: ProtectiveDecision;
  readonly progress: DecisionProgress;
}

/** The protection section's history: the kill switch's state as `accounts show` words it, and the decisions. */
export interface ProtectionHistory {
  /** `null` when the account has no kill switch (as `accounts show` leaves the line out). */
  readonly killSwitchNow: string | null;
  /** What became of a queued firing's keys, when its decision is on the page; `null` otherwise. */
  readonly killSwitchProgress: KillSwitchProgress | null;
  readonly decisions: readonly DecisionView[];
  /** Where the next (older) page of decisions starts; `null` when none is older. */
  readonly next: string | null;
}

/** A page of an account's automatic decisions, each with where it stands. */
export interface DecisionsPage {
  readonly decisions: readonly DecisionView[];
  readonly next: string | null;
}

/**
 * Reads a page of the account `address`'s automatic decisions from `after` (a page's `next`;
 * `null`: the newest; dry runs included): one index `Query`, then each decision's units.
 */
export async function readDecisionsPage(stores: Pick<DeskStores, 'decisions'>, address: string, after: string | null = null): Promise<DecisionsPage> {
  const listed = await stores.decisions.pageForAccount(address, DECISIONS_PAGE, after);
  const decisions = await Promise.all(
    listed.decisions.map(async (decision) => ({
      decision,
      progress: decisionProgress(decision, decision.dryRun ? new Map() : await stores.decisions.units(decision)),
    })),
  );
  return { decisions, next: listed.next };
}

/**
 * The protection section: the decisions `page`, and the kill switch's `state` worded with the
 * settlement of the decision a `revoking` state names (when on the page), as `status` and
 * `accounts show` do.
 */
export function protectionHistory(
  page: DecisionsPage,
  account: Pick<TrackedAccount, 'address' | 'killSwitch'>,
  state: KillSwitchState | null,
): ProtectionHistory {
  let killSwitchNow: string | null = null;
  let progress: KillSwitchProgress | null = null;
  if (account.killSwitch !== null) {
    const named = state?.status === 'revoking' ? page.decisions.find((d) => d.decision.decisionId === state.decisionId)?.progress : undefined;
    const settlement = named?.kind === 'settled' ? named.settlement : null;
    killSwitchNow = killSwitchStateText(state, account.address, settlement);
    if (named !== undefined) progress = killSwitchProgress(settlement);
  }
  return { killSwitchNow, killSwitchProgress: progress, decisions: page.decisions, next: page.next };
}
