import * as z from 'zod';
import type { KillSwitchConfirm, TrackedAccount } from './account';
import type { Address } from './address';
import type { ObservedDelegate } from './delegateAlerts';
import { drawdown, drawdownCurve } from './drawdown';
import { INTERVAL_MS } from './interval';
import type { KillSwitchAction, KillSwitchFiring } from './killSwitchFiring';
import { rereadDrawdown, rereadWindows, type RereadMinute, type RereadWindow } from './killSwitchReread';
import type { ProtectiveActionRequest } from './protectiveAction';
import type { SeriesPoint } from './series';
import { isDataFresh } from './staleness';

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

/** What the gate of one evaluation knows (`killSwitchGate`). */
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
 * What the gate came to, and the state to store. Only `fire` goes on to act (once the two `1m`
 * minutes up to the crossing confirm it, `decideKillSwitch`); every other kind says why it did not.
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
 * The gate of the kill switch: whether it goes on to the `1m` confirmation now. Guards, in order: data must be fresh and complete
 * (else nothing moves); a fired or pre-tracking crossing is re-armed only by a recovery below
 * `level - hysteresis`; no crossing (the drawdown under the level) cancels a pending confirmation;
 * a crossing reached only through marked steps never fires nor starts a confirmation; `confirm
 * now` fires on the first crossing, `wait` once the level has held an interval: across
 * evaluations (pending since at least one interval), or within the points one poll brought (a
 * catch-up batch whose run past the level already spans an interval).
 */
export function killSwitchGate(input: KillSwitchInput): KillSwitchVerdict {
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

/** A point of the exact series at or past the kill switch's level: the one it decides and re-reads on. */
export interface KillSwitchCrossing {
  readonly at: number;
  /** The drawdown there, percent. */
  readonly drawdownPct: number;
  /** The same with every marked step at its favourable placement (`DrawdownResult.favourableCurrentPct`). */
  readonly favourableDrawdownPct: number;
  /** The running peak the drawdown at `at` is measured from. */
  readonly peakAt: number;
  /**
   * The first point of the unbroken run of points at or past the level that ends at `at`, among
   * those this poll brought (`at` itself when it is the only one): how long the new data shows
   * the level held.
   */
  readonly since: number;
}

/**
 * The crossing of `levelPct` the kill switch decides on, measured on the exact series as the
 * drawdown alert is: the newest point when its drawdown reaches the level; else the newest of
 * the points from `newFrom` on (those this poll brought) that does, so a loss that arrived in a
 * catch-up batch and recovered within it still counts. `newFrom` `null` (nothing new, or history
 * fetched again): the newest point only. `null`: no such point reaches the level.
 */
export function killSwitchCrossing(series: readonly SeriesPoint[], levelPct: number, newFrom: number | null): KillSwitchCrossing | null {
  const curve = drawdownCurve(series);
  let index = curve.length - 1;
  while (index >= 0 && curve[index]!.drawdownPct < levelPct) {
    index--;
    if (newFrom === null || (curve[index]?.timestamp ?? Number.NEGATIVE_INFINITY) < newFrom) return null;
  }
  if (index < 0) return null;
  let first = index;
  while (newFrom !== null && first > 0 && curve[first - 1]!.timestamp >= newFrom && curve[first - 1]!.drawdownPct >= levelPct) first--;
  const measured = drawdown(series.slice(0, index + 1))!;
  return {
    at: measured.asOf,
    drawdownPct: measured.currentPct,
    favourableDrawdownPct: measured.favourableCurrentPct,
    peakAt: measured.peakAt,
    since: curve[first]!.timestamp,
  };
}

/** `1m` samples around the crossing: a `1m` account's own stored series, or the windows read from the chain. */
export interface KillSwitchMinutes {
  readonly from: 'stored' | 'chain';
  readonly points: readonly SeriesPoint[];
}

/** What collect loads for one evaluation of an account's kill switch. */
export interface KillSwitchFacts {
  readonly account: Pick<TrackedAccount, 'address' | 'interval' | 'createdAt' | 'killSwitch' | 'killSwitchConfirm' | 'killSwitchWebSessions' | 'keepDelegates'>;
  /** The stored state and its version (`null` state: never evaluated, or unreadable). */
  readonly stored: { readonly state: KillSwitchState | null; readonly version: number | null };
  /** The drawdown this poll measured; `measured` is the exact window, `null` when the poll stopped at the rollup. */
  readonly drawdown: {
    readonly drawdownPct: number | null;
    readonly asOf: number | null;
    readonly measured: { readonly series: readonly SeriesPoint[] } | null;
  };
  /** The oldest point this poll brought; `null` when it brought none or fetched history again (a first poll, an interval change). */
  readonly newPointsFrom: number | null;
  /** The `1m` samples to confirm on; `null`: none read yet. */
  readonly minutes: KillSwitchMinutes | null;
  /** The delegates listed now; `null`: not read by this poll. */
  readonly delegates: readonly ObservedDelegate[] | null;
  readonly now: number;
  /** The poll's scheduled time: a redelivered job has the same, so its firing names the same decision. */
  readonly dueAt: number;
  readonly hysteresisPct: number;
  readonly staleAfterIntervals: number;
}

/** The figures a refusal to act rests on (for the log and the counters). */
export interface KillSwitchRefutation {
  readonly drawdownPct: number;
  readonly rereadPct: number | null;
  readonly minutePcts: readonly number[];
}

/**
 * What one evaluation of the kill switch comes to:
 * - `nothing`: off, or held (stale or incomplete data, marked steps only, crossed before tracking,
 *   already fired); `next` is the state to store (`null`: none);
 * - `arm`: under the level (armed, or re-armed by a recovery past the hysteresis);
 * - `wait`: crossed under `confirm wait`, the confirmation pending since `since`;
 * - `read`: the gate says fire, and the confirmation needs what was not loaded: the `1m` windows
 *   (`windows`, empty when none) and/or the delegates; decide again with them;
 * - `refute`: the `1m` minutes do not confirm the level (`refuted`), or could not be read
 *   (`unreadable`): nothing is done and the state is kept, so the next poll decides again;
 * - `fire`: confirmed: the protection service's request, the firing its notice carries (without
 *   the service's answer), and the state to store follows from that answer (`firedState`).
 */
export type KillSwitchDecision =
  | { readonly kind: 'nothing'; readonly why: 'off' | Extract<KillSwitchVerdict, { kind: 'held' }>['why']; readonly next: KillSwitchState | null }
  | { readonly kind: 'arm'; readonly next: KillSwitchState }
  | { readonly kind: 'wait'; readonly since: number; readonly next: KillSwitchState }
  | { readonly kind: 'read'; readonly windows: readonly RereadWindow[]; readonly delegates: boolean }
  | { readonly kind: 'refute'; readonly why: 'refuted' | 'unreadable'; readonly evidence: KillSwitchRefutation }
  | { readonly kind: 'fire'; readonly request: ProtectiveActionRequest; readonly firing: Omit<KillSwitchFiring, 'action'> };

/**
 * The kill switch of one account on one poll, decided on what collect loaded: the crossing on the
 * exact series (`killSwitchCrossing`: the newest point past the level, or one of a catch-up
 * batch), the gate (`killSwitchGate`: fresh complete data, not on marked steps alone, not for a
 * crossing from before tracking, the confirmation wait, once until a recovery or `accounts
 * rearm`), then the confirmation on `1m` samples (`rereadDrawdown`: the two minutes up to the
 * crossing both past the level, from a peak the account held for two minutes). A `1m` account
 * confirms on its own stored points; other intervals, or a stored minute missing, ask to `read`
 * the windows at `1m`. On `fire` it names what to revoke: every listed delegate, but web sessions
 * under `--kill-switch-web-sessions keep` (kept keys are left out by the protection service, and
 * named in the notice).
 */
export function decideKillSwitch(facts: KillSwitchFacts): KillSwitchDecision {
  const { account, stored, now } = facts;
  const levelPct = account.killSwitch;
  if (levelPct === null) return { kind: 'nothing', why: 'off', next: null };
  const { state } = stored;
  const measured = facts.drawdown;
  const exact = measured.measured;
  const crossing = exact === null ? null : killSwitchCrossing(exact.series, levelPct, facts.newPointsFrom);
  const verdict = killSwitchGate({
    levelPct,
    confirm: account.killSwitchConfirm,
    drawdownPct: measured.drawdownPct,
    crossing,
    dataFresh: isDataFresh(measured.asOf, now, account.interval, facts.staleAfterIntervals),
    // A failed curve read ends the poll before this; a poll measured on the rollup alone is not complete for a decision.
    dataComplete: exact !== null || measured.drawdownPct === null || measured.drawdownPct < levelPct,
    state,
    breachedBeforeTracking: state === null && exact !== null && reachedBefore(exact.series, account.createdAt, levelPct),
    intervalMs: INTERVAL_MS[account.interval],
    hysteresisPct: facts.hysteresisPct,
    now,
  });
  if (verdict.kind === 'off') return { kind: 'nothing', why: 'off', next: null };
  if (verdict.kind === 'held') return { kind: 'nothing', why: verdict.why, next: verdict.next };
  if (verdict.kind === 'below') return { kind: 'arm', next: verdict.next };
  if (verdict.kind === 'awaiting-confirmation') return { kind: 'wait', since: verdict.since, next: verdict.next };

  const drawdownPct = measured.drawdownPct;
  if (exact === null || crossing === null || drawdownPct === null || measured.asOf === null)
    return { kind: 'refute', why: 'unreadable', evidence: { drawdownPct: drawdownPct ?? 0, rereadPct: null, minutePcts: [] } };
  const at = { peakAt: crossing.peakAt, troughAt: crossing.at };
  const own = facts.minutes ?? (account.interval === '1m' ? { from: 'stored' as const, points: exact.series } : null);
  // Both reads at once when both are missing: the confirmation is on the path to revoking, so no round trip is spared.
  const readMinutes = { kind: 'read', windows: rereadWindows(crossing.peakAt, crossing.at), delegates: facts.delegates === null } as const;
  if (own === null) return readMinutes;
  const reread = rereadDrawdown(exact.series, at, own.points, levelPct);
  if (reread.kind === 'unreadable' && own.from === 'stored') return readMinutes;
  if (reread.kind === 'unreadable') return { kind: 'refute', why: 'unreadable', evidence: { drawdownPct, rereadPct: null, minutePcts: [] } };
  if (reread.kind === 'refuted')
    return { kind: 'refute', why: 'refuted', evidence: { drawdownPct, rereadPct: reread.drawdownPct, minutePcts: reread.minutes.map((m) => m.drawdownPct) } };
  const delegates = facts.delegates;
  if (delegates === null) return { kind: 'read', windows: [], delegates: true };

  const keepWeb = account.killSwitchWebSessions === 'keep';
  const requested = delegates.filter((d) => !(keepWeb && d.isWebClient)).map((d) => d.address as Address);
  const keptWebSessions = delegates.filter((d) => keepWeb && d.isWebClient).map((d) => d.address as Address);
  const keepDelegate = new Set(account.keepDelegates.map((k) => k.toLowerCase()));
  const keptKeys = requested.filter((d) => keepDelegate.has(d.toLowerCase()));
  const reason = `kill-switch: drawdown ${drawdownPct.toFixed(2)}% now, 1-minute re-read ${reread.drawdownPct.toFixed(1)}% ≥ ${levelPct}% at ${new Date(crossing.at).toISOString()}`;
  const [minuteBefore, trough]: readonly [RereadMinute, RereadMinute] = reread.minutes;
  const evidence = {
    levelPct,
    drawdownPct,
    asOf: measured.asOf,
    crossingAt: crossing.at,
    crossingPct: crossing.drawdownPct,
    heldSince: crossing.since,
    rereadPct: reread.drawdownPct,
    rereadFrom: own.from,
    peakAt: crossing.peakAt,
    rereadPeakPnl: reread.peak.pnl,
    rereadPeakEquity: reread.peak.equity,
    rereadPeakSamples: reread.peak.samples,
    minuteBeforeAt: minuteBefore.at,
    rereadMinuteBeforePct: minuteBefore.drawdownPct,
    troughAt: trough.at,
    rereadTroughPct: trough.drawdownPct,
    rereadTroughPnl: trough.pnl,
    rereadTroughEquity: trough.equity,
    confirm: account.killSwitchConfirm,
    ...(state?.status === 'pending' ? { pendingSince: state.since } : {}),
    delegatesRead: delegates.length,
  };
  // The crossing's occasion: the pending crossing's time under `confirm wait`, else this poll's; and this arming of the switch.
  const occasion = { at: state?.status === 'pending' ? state.since : facts.dueAt, generation: stored.version ?? 0 };
  return {
    kind: 'fire',
    request: { account: account.address, rule: 'kill-switch', reason, delegates: requested, evidence, occasion, now },
    firing: {
      levelPct,
      // The drawdown now (the crossing's is in the evidence): a catch-up batch's crossing may be behind it.
      drawdownPct: clampPct(drawdownPct),
      rereadPct: clampPct(reread.drawdownPct),
      peakAt: crossing.peakAt,
      asOf: measured.asOf,
      reason,
      requested,
      keptWebSessions,
      keptKeys,
      names: delegates.map((d) => ({ address: d.address as Address, name: d.name })),
    },
  };
}

/** The state after a firing: `revoking` until the signer settles a queued decision; without one, fired with what the service answered. */
export function firedState(action: KillSwitchAction, now: number): KillSwitchState {
  return action.kind === 'requested' && action.outcome.kind === 'queued'
    ? { status: 'revoking', at: now, decisionId: action.outcome.decisionId }
    : { status: 'fired', at: now, outcome: action.kind === 'requested' ? action.outcome.kind : action.kind };
}

/** Whether the drawdown measured on the points up to `at` (tracking start) had reached `levelPct`. */
function reachedBefore(series: readonly SeriesPoint[], at: number, levelPct: number): boolean {
  const before = drawdown(series.filter((p) => p.timestamp <= at));
  return before !== null && before.currentPct >= levelPct;
}

function clampPct(value: number): number {
  return Math.min(100, Math.max(0, value));
}
