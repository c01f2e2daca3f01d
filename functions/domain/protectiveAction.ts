import type { Address } from './address';

/** Which automatic rule asks for a revocation. */
export type ProtectiveRule = 'kill-switch' | 'unknown-delegate';

/**
 * What a rule evaluator (collect's drawdown check, delegate-watch) asks the protection service
 * for: revoke these delegates of this account, for this reason. The service decides (stage-wide
 * switch, armed or dry run, caps, breaker, kept and announced keys), writes the immutable
 * decision record and queues one revocation per delegate; the signer re-checks the decision.
 */
export interface ProtectiveActionRequest {
  readonly account: Address;
  readonly rule: ProtectiveRule;
  /** For the audit and the notice, e.g. `kill-switch: drawdown 30.4% ≥ 30% at 2026-11-25T08:00Z` or `unknown delegate`. */
  readonly reason: string;
  readonly delegates: readonly Address[];
  /** The figures the decision rests on (levels, peak, trough, times, the delegate read), kept in the decision record. */
  readonly evidence: Readonly<Record<string, string | number | boolean>>;
  /**
   * What makes the decision this one (`protectiveDecisionId`): the crossing's time (the kill
   * switch) or the time of the check that sighted the key (unknown keys), and the rule's arming
   * generation. A redelivered collect message asks with the same occasion, so it finds the
   * decision it already made.
   */
  readonly occasion: { readonly at: number; readonly generation: number };
  readonly now: number;
}

/**
 * What became of a request. Only `queued` revokes anything, and the signer may still refuse it
 * (the caps and the breaker are counted at signing time): its result notice follows. Every other
 * kind alerts only and says why. `capped` and `breaker-open` are no longer answered here (the
 * signer counts both); notices queued before still carry them.
 */
export type ProtectiveActionOutcome =
  | { readonly kind: 'queued'; readonly decisionId: string; readonly delegates: readonly Address[] }
  | { readonly kind: 'dry-run'; readonly decisionId: string; readonly delegates: readonly Address[] }
  | { readonly kind: 'protection-off' }
  | { readonly kind: 'not-armed' }
  | { readonly kind: 'capped'; readonly cap: string }
  | { readonly kind: 'breaker-open'; readonly firedAccounts: number }
  | { readonly kind: 'nothing-to-revoke' };

/** The port a rule evaluator calls; the protection service implements it. */
export type ProtectiveRevoker = (request: ProtectiveActionRequest) => Promise<ProtectiveActionOutcome>;
