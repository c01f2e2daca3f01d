import type { Address } from './address';
import type { TrackedAccount } from './account';
import type { DelegateAnnouncement } from './delegateAnnouncement';
import type { ProtectionState } from './protectionSwitch';
import { isKeptDelegate, protectionArming } from './protectionArming';
import type { ProtectiveDecision } from './protectiveDecision';

/**
 * Why the signer did not sign a delegate of a decision, as a code (what the result notice, the
 * alarms and the unknown-key watch act on):
 * - `invalid`: no such decision, or it names another account or not this delegate (never from our own queue);
 * - `dry-run-decision`: a dry run's decision, which revokes nothing;
 * - `aged`: it could not be signed within the decision's age limit (the chain, the owner key or the lease kept failing);
 * - `protection-off`: automatic actions were turned off stage-wide;
 * - `not-tracked`, `not-armed`, `account-dry-run`: the account was removed, disarmed or put in dry run since;
 * - `kept`: the key was marked kept (`--keep-delegate`) or announced since;
 * - `known-key`: an unknown-key decision about a key of the account's known set;
 * - `breaker-open`: too many accounts fired within the hour (a data fault, likely);
 * - `capped`: the account's cap of the rule is used up;
 * - `web-session`: the chain now lists the key as a web session, which the rule does not revoke.
 */
export const REFUSAL_CODES = [
  'invalid',
  'dry-run-decision',
  'aged',
  'protection-off',
  'not-tracked',
  'not-armed',
  'account-dry-run',
  'kept',
  'known-key',
  'breaker-open',
  'capped',
  'web-session',
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

/** A refusal: its code, and its words (for the desk's result notice and the audit trail). */
export interface DecisionRefusal {
  readonly code: RefusalCode;
  readonly text: string;
}

/** What the signer knows when it is asked to revoke `delegate` of `account` for a decision. */
export interface DecisionCheckInput {
  readonly account: Address;
  readonly delegate: Address;
  readonly decision: ProtectiveDecision | null;
  /** The account as stored now (`null`: no longer tracked). */
  readonly tracked: TrackedAccount | null;
  /** The account's announcements (`sentinel delegates expect`), as stored now. */
  readonly announcements: readonly DelegateAnnouncement[];
  /** The account's known keys (lower case), as stored now. */
  readonly known: ReadonlySet<string>;
  readonly protection: ProtectionState;
  readonly now: number;
  readonly maxAgeMs: number;
  /** Why an earlier attempt at this delegate sent nothing, in words (`null`: none failed). */
  readonly lastFailure: string | null;
}

const minutes = (ms: number): string => {
  const m = Math.round(ms / 60_000);
  return m >= 1 ? `${m} minute${m === 1 ? '' : 's'}` : `${Math.round(ms / 1000)} s`;
};

/**
 * Why a decision no longer allows revoking `delegate` at signing time, or `null` when it does:
 * it must exist, name this account and delegate, not be a dry run, be at most `maxAgeMs` old;
 * automatic actions must be on stage-wide; the account still tracked and armed for the rule (not
 * a dry run); the delegate neither kept nor announced, and, for an unknown-key decision, not one of
 * the account's known keys. The caps and the breaker are counted after this, at signing time.
 */
export function decisionRefusal(input: DecisionCheckInput): DecisionRefusal | null {
  const { decision, tracked, now } = input;
  if (decision === null) return { code: 'invalid', text: 'no protective decision has this id' };
  if (decision.account !== input.account) return { code: 'invalid', text: 'the decision is for another account' };
  if (!decision.delegates.includes(input.delegate)) return { code: 'invalid', text: 'the decision does not name this delegate' };
  if (decision.dryRun) return { code: 'dry-run-decision', text: 'the decision is a dry run' };
  const age = now - decision.createdAt;
  if (age > input.maxAgeMs) {
    const why = input.lastFailure ?? 'it was not signed in time';
    return { code: 'aged', text: `it could not be signed within ${minutes(input.maxAgeMs)} (the decision is ${Math.round(age / 1000)} s old): ${why}` };
  }
  if (input.protection !== 'on') return { code: 'protection-off', text: 'automatic protection was turned off stage-wide before it could be signed' };
  if (tracked === null) return { code: 'not-tracked', text: 'the account is no longer tracked' };
  const arming = protectionArming(tracked, decision.rule);
  if (arming === 'dry-run') return { code: 'account-dry-run', text: `the account's ${decision.rule} was put in dry run before it could be signed` };
  if (arming !== 'armed') return { code: 'not-armed', text: `the account is no longer armed for ${decision.rule}` };
  if (isKeptDelegate(tracked, input.announcements, input.delegate, now))
    return { code: 'kept', text: 'the key was marked kept (--keep-delegate) or announced (delegates expect) before it could be signed' };
  if (decision.rule === 'unknown-delegate' && input.known.has(input.delegate.toLowerCase()))
    return { code: 'known-key', text: "the key is one of the account's known keys, so it is not unknown" };
  return null;
}
