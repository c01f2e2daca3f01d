import type { Address } from './address';
import type { TrackedAccount } from './account';
import type { DelegateAnnouncement } from './delegateAnnouncement';
import type { ProtectionState } from './protectionSwitch';
import { isKeptDelegate, protectionArming } from './protectionArming';
import { breakerOpen, PROTECTION_CAPS, type CountedAction, type ProtectiveDecision } from './protectiveDecision';

/** What the signer knows when it is asked to revoke `delegate` of `account` for a decision. */
export interface DecisionCheckInput {
  readonly account: Address;
  readonly delegate: Address;
  readonly decision: ProtectiveDecision | null;
  /** The account as stored now (`null`: no longer tracked). */
  readonly tracked: TrackedAccount | null;
  /** The account's announcements (`sentinel delegates expect`), as stored now. */
  readonly announcements: readonly DelegateAnnouncement[];
  readonly protection: ProtectionState;
  /** The account's counted actions of the decision's rule within the cap's day. */
  readonly capEntries: readonly CountedAction[];
  /** The firings counted stage-wide within the breaker's hour. */
  readonly firings: readonly CountedAction[];
  readonly now: number;
  readonly maxAgeMs: number;
  /** The breaker opens when more accounts than this fire within an hour. */
  readonly breakerAccounts: number;
}

/**
 * Why a decision no longer allows revoking `delegate` at signing time, or `null` when it does:
 * it must exist, name this account and delegate, not be a dry run, be at most `maxAgeMs` old;
 * automatic actions must be on stage-wide; the account still tracked and armed for the rule (not
 * a dry run); the delegate neither kept nor announced; the decision counted under the account's
 * cap; the breaker closed. The reason is for the audit trail.
 */
export function decisionRefusal(input: DecisionCheckInput): string | null {
  const { decision, tracked, now } = input;
  if (decision === null) return 'no protective decision has this id';
  if (decision.account !== input.account) return 'the decision is for another account';
  if (!decision.delegates.includes(input.delegate)) return 'the decision does not name this delegate';
  if (decision.dryRun) return 'the decision is a dry run';
  const age = now - decision.createdAt;
  if (age > input.maxAgeMs) return `the decision is ${Math.round(age / 1000)} s old, more than ${Math.round(input.maxAgeMs / 1000)} s`;
  if (input.protection !== 'on') return 'automatic actions are off stage-wide';
  if (tracked === null) return 'the account is no longer tracked';
  const arming = protectionArming(tracked, decision.rule);
  if (arming !== 'armed') return arming === 'dry-run' ? `the account's ${decision.rule} is in dry run` : `the account is no longer armed for ${decision.rule}`;
  if (isKeptDelegate(tracked, input.announcements, input.delegate, now)) return 'the delegate is kept';
  const counted = input.capEntries.findIndex((e) => e.decisionId === decision.decisionId);
  if (counted < 0 || counted >= PROTECTION_CAPS[decision.rule]) return `the decision is not within the account's ${decision.rule} cap of the last 24 hours`;
  if (breakerOpen(input.firings, now, input.breakerAccounts)) return `the breaker is open: more than ${input.breakerAccounts} accounts fired within an hour`;
  return null;
}
