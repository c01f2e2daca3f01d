import * as z from 'zod';
import type { KillSwitchConfirm } from './account';
import type { KillSwitchCrossing } from './killSwitchCrossing';

/**
 * The kill switch's state for one account, kept in the `alerts` table:
 * - `idle`: armed, nothing crossed;
 * - `baseline`: the level was already reached when tracking began; it fires only after a recovery;
 * - `pending`: crossed at `since`, waiting for the next evaluation to confirm (`confirm wait`);
 * - `revoking`: fired at `at` and decision `decisionId` queued; whether it revoked anything is
 *   the signer's to settle (`status` reads the decision's result: fired, or refused and why);
 * - `fired`: fired at `at` without a decision to sign (`outcome`: what the protection service
 *   answered, e.g. `protection-off`; absent in states written before it was kept).
 * `revoking` and `fired` hold until a recovery past the hysteresis or `accounts rearm`.
 */
export const killSwitchStateSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('idle') }),
  z.object({ status: z.literal('baseline') }),
  z.object({ status: z.literal('pending'), since: z.number().int().min(0) }),
  z.object({ status: z.literal('revoking'), at: z.number().int().min(0), decisionId: z.string().min(1).max(128) }),
  z.object({ status: z.literal('fired'), at: z.number().int().min(0), outcome: z.string().max(40).optional() }),
]);
export type KillSwitchState = z.infer<typeof killSwitchStateSchema>;

/** The state `accounts rearm` writes: armed again, as if nothing had crossed. */
export const REARMED: KillSwitchState = { status: 'idle' };

/** What one evaluation of the kill switch knows. */
export interface KillSwitchInput {
  /** The account's level (percent); `null`: the kill switch is off. */
  readonly levelPct: number | null;
  readonly confirm: KillSwitchConfirm;
  /** The flow-adjusted drawdown now, percent (`null` without data). */
  readonly drawdownPct: number | null;
  /**
   * The point at or past the level to decide on, on the exact series (`killSwitchCrossing`): the
   * newest, or one of a catch-up batch; `null` when none is, or when the poll was not measured on
   * the full window.
   */
  readonly crossing: Pick<KillSwitchCrossing, 'at' | 'since' | 'favourableDrawdownPct'> | null;
  /** The newest point is recent enough (`domain/staleness`). */
  readonly dataFresh: boolean;
  /** This poll's data is complete: every curve read succeeded and no flow step is left unmeasured. */
  readonly dataComplete: boolean;
  /** The stored state; `null` on the first evaluation. */
  readonly state: KillSwitchState | null;
  /** On the first evaluation: whether the level was already reached when tracking began. */
  readonly breachedBeforeTracking: boolean;
  /** The account's poll interval: a `wait` confirmation needs the level held this long. */
  readonly intervalMs: number;
  readonly hysteresisPct: number;
  readonly now: number;
}

/**
 * What the evaluation came to, and the state to store. Only `fire` acts (after the caller's
 * re-read of peak and trough confirms it); every other kind says why it did not.
 */
export type KillSwitchVerdict =
  | { readonly kind: 'off' }
  | { readonly kind: 'fire'; readonly next: KillSwitchState }
  | { readonly kind: 'awaiting-confirmation'; readonly since: number; readonly next: KillSwitchState }
  | {
      readonly kind: 'held';
      readonly why: 'stale-data' | 'incomplete-data' | 'marked-steps-only' | 'crossed-before-tracking' | 'already-fired';
      readonly next: KillSwitchState;
    }
  | { readonly kind: 'below'; readonly next: KillSwitchState };

/**
 * Decides whether the kill switch fires now. Guards, in order: data must be fresh and complete
 * (else nothing moves); a fired or pre-tracking crossing is re-armed only by a recovery below
 * `level - hysteresis`; no crossing (the drawdown under the level) cancels a pending confirmation;
 * a crossing reached only through marked steps never fires nor starts a confirmation; `confirm
 * now` fires on the first crossing, `wait` once the level has held an interval: across
 * evaluations (pending since at least one interval), or within the points one poll brought (a
 * catch-up batch whose run past the level already spans an interval).
 */
export function decideKillSwitch(input: KillSwitchInput): KillSwitchVerdict {
  const { levelPct, drawdownPct, now } = input;
  if (levelPct === null) return { kind: 'off' };
  const state: KillSwitchState = input.state ?? (input.breachedBeforeTracking ? { status: 'baseline' } : { status: 'idle' });
  if (!input.dataFresh || drawdownPct === null) return { kind: 'held', why: 'stale-data', next: state };
  if (!input.dataComplete) return { kind: 'held', why: 'incomplete-data', next: state };

  if (state.status === 'fired' || state.status === 'revoking' || state.status === 'baseline') {
    if (drawdownPct < levelPct - input.hysteresisPct) return { kind: 'below', next: { status: 'idle' } };
    return { kind: 'held', why: state.status === 'baseline' ? 'crossed-before-tracking' : 'already-fired', next: state };
  }
  const { crossing } = input;
  if (crossing === null) {
    if (drawdownPct < levelPct) return { kind: 'below', next: { status: 'idle' } };
    // Past the level but not measured on the full window: no decision on a partial measure.
    return { kind: 'held', why: 'incomplete-data', next: state };
  }
  if (crossing.favourableDrawdownPct < levelPct) return { kind: 'held', why: 'marked-steps-only', next: state };

  if (input.confirm === 'now' || crossing.at - crossing.since >= input.intervalMs) return { kind: 'fire', next: { status: 'fired', at: now } };
  if (state.status === 'pending') {
    if (now - state.since >= input.intervalMs) return { kind: 'fire', next: { status: 'fired', at: now } };
    return { kind: 'awaiting-confirmation', since: state.since, next: state };
  }
  return { kind: 'awaiting-confirmation', since: now, next: { status: 'pending', since: now } };
}
