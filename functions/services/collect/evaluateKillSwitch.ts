import { ChainError } from '../../chain/errors';
import type { ChainClient } from '../../chain/ports';
import type { Delegate } from '../../chain/schemas';
import type { TrackedAccount } from '../../domain/account';
import type { Address } from '../../domain/address';
import { drawdown } from '../../domain/drawdown';
import { INTERVAL_MS } from '../../domain/interval';
import { killSwitchCrossing, type KillSwitchCrossing } from '../../domain/killSwitchCrossing';
import { decideKillSwitch, type KillSwitchState, type KillSwitchVerdict } from '../../domain/killSwitchDecision';
import type { KillSwitchAction, KillSwitchFiring } from '../../domain/killSwitchFiring';
import { rereadDrawdown, rereadWindows, type RereadVerdict } from '../../domain/killSwitchReread';
import type { ProtectiveRevoker } from '../../domain/protectiveAction';
import { alignCurves } from '../../domain/series';
import { isDataFresh } from '../../domain/staleness';
import type { NotifyEvent } from '../../messages/notifyMessage';
import type { Counters, Log } from '../../shared/observability';
import type { AlertStateRepository } from '../../store/alertStateRepository';
import type { PendingAlerts } from './evaluateDrawdown';
import { tryReadDelegates } from './readDelegates';
import type { RefinementBudget } from './refinementBudget';
import { KILL_SWITCH_RULE, readKillSwitchState } from '../../store/killSwitchStateItem';

/** What the kill switch needs besides the drawdown just measured. */
export interface KillSwitchDeps {
  readonly chain: ChainClient;
  readonly alerts: Pick<AlertStateRepository, 'get' | 'compareAndSet'>;
  /** Absent: nothing is revoked and the notice says protection is not set up. */
  readonly revoke?: ProtectiveRevoker | undefined;
  /** The re-read's `1m` requests (one or two) come out of it; absent, they are made unbudgeted. */
  readonly budget?: RefinementBudget | undefined;
  readonly log: Log;
  readonly counters: Counters;
}

/** The poll's view the kill switch decides on. */
export interface KillSwitchPoll {
  readonly now: number;
  /** The poll's scheduled time (its job's `dueAt`): a redelivered job has the same, so its firing names the same decision. */
  readonly dueAt: number;
  readonly drawdown: Pick<PendingAlerts, 'drawdownPct' | 'asOf' | 'measured'>;
  /** The oldest point this poll brought; `null` when it brought none or fetched history again (a first poll, an interval change). */
  readonly newPointsFrom: number | null;
  /** This poll's delegate read, `null` when the poll did not read them (then read when firing). */
  readonly delegates: readonly Delegate[] | null;
  readonly hysteresisPct: number;
  readonly staleAfterIntervals: number;
}

/** The events the evaluation raised, and its state write to make once they are queued. */
export interface KillSwitchResult {
  readonly events: NotifyEvent[];
  /** What the evaluation came to (for logs and tests): the verdict, or why a `fire` did not act. */
  readonly outcome: KillSwitchVerdict['kind'] | 'refuted' | 'reread-unavailable';
  readonly commit: () => Promise<void>;
}

const OFF: KillSwitchResult = { events: [], outcome: 'off', commit: async () => undefined };

/**
 * The kill switch of one account after its drawdown was evaluated (`--kill-switch`): reads its
 * state (rule `kill-switch` in the alerts table), finds the crossing on the exact series (the
 * newest point past the level, or one of a catch-up batch: `killSwitchCrossing`), decides with
 * `decideKillSwitch` (fresh complete data, not on marked flow steps alone, not for a crossing from
 * before tracking, the confirmation wait, once until a recovery or `accounts rearm`), and on
 * `fire` re-reads the minutes around the peak and the two up to the crossing at `1m`
 * (`rereadDrawdown`; a `1m` account's own points, else one or two requests from the refinement
 * budget); only when the level held both minutes does it ask the protection service to revoke
 * every delegate (web sessions only under `--kill-switch-web-sessions revoke`; the service leaves
 * kept and announced keys out) and raise one security notice, whatever the service answered. A re-read that refutes the
 * level, or that could not be made, acts on nothing and keeps the state, so the next poll decides
 * again. The state is written by `commit()`, after the notice is queued.
 */
export async function evaluateKillSwitch(deps: KillSwitchDeps, account: TrackedAccount, poll: KillSwitchPoll): Promise<KillSwitchResult> {
  const levelPct = account.killSwitch;
  if (levelPct === null) return OFF;
  const { state, version } = await readKillSwitchState(deps.alerts, account.address);
  const { drawdown: measured, now } = poll;
  const exact = measured.measured;
  const crossing = exact === null ? null : killSwitchCrossing(exact.series, levelPct, poll.newPointsFrom);
  const verdict = decideKillSwitch({
    levelPct,
    confirm: account.killSwitchConfirm,
    drawdownPct: measured.drawdownPct,
    crossing,
    dataFresh: isDataFresh(measured.asOf, now, account.interval, poll.staleAfterIntervals),
    // A failed curve read ends the poll before this; a poll measured on the rollup alone is not complete for a decision.
    dataComplete: measured.measured !== null || measured.drawdownPct === null || measured.drawdownPct < levelPct,
    state,
    breachedBeforeTracking: state === null && measured.measured !== null && reachedBefore(measured.measured.series, account.createdAt, levelPct),
    intervalMs: INTERVAL_MS[account.interval],
    hysteresisPct: poll.hysteresisPct,
    now,
  });
  const save = async (next: KillSwitchState) => {
    if (state !== null && sameState(state, next)) return;
    // A conflict is a concurrent poll of the same account (or `accounts rearm`): its write stands.
    await deps.alerts.compareAndSet(account.address, KILL_SWITCH_RULE, version, next);
  };
  if (verdict.kind === 'off') return OFF;
  if (verdict.kind !== 'fire') {
    // Debug: a held crossing (stale data, from before tracking, fired) repeats at every poll.
    if (verdict.kind === 'held' || verdict.kind === 'awaiting-confirmation')
      deps.log[verdict.kind === 'held' ? 'debug' : 'info']('kill switch: not acting', {
        account: account.address,
        verdict: verdict.kind,
        ...(verdict.kind === 'held' ? { why: verdict.why } : {}),
      });
    return { events: [], outcome: verdict.kind, commit: () => save(verdict.next) };
  }

  const drawdownPct = measured.drawdownPct;
  if (exact === null || crossing === null || drawdownPct === null || measured.asOf === null)
    return { events: [], outcome: 'reread-unavailable', commit: async () => undefined };
  const reread = await rereadPeakAndTrough(deps, account, exact.series, crossing, levelPct);
  if (reread.kind !== 'confirmed') {
    const outcome = reread.kind === 'refuted' ? 'refuted' : 'reread-unavailable';
    deps.counters.count(reread.kind === 'refuted' ? 'KillSwitchRefuted' : 'KillSwitchRereadUnavailable');
    deps.log.warn('kill switch: the 1m re-read does not confirm the level; nothing revoked', {
      account: account.address,
      outcome,
      drawdownPct,
      ...(reread.kind === 'refuted' ? { rereadPct: reread.drawdownPct, minutePcts: reread.minutes.map((m) => m.drawdownPct) } : {}),
    });
    return { events: [], outcome, commit: async () => undefined };
  }

  const read = poll.delegates ? { kind: 'read' as const, delegates: poll.delegates } : await tryReadDelegates(deps.chain, account.address);
  if (read.kind === 'chain-failed') return { events: [], outcome: 'reread-unavailable', commit: async () => undefined };
  const { delegates } = read;
  const keepWeb = account.killSwitchWebSessions === 'keep';
  const requested = delegates.filter((d) => !(keepWeb && d.isWebClient)).map((d) => d.address);
  const keptWebSessions = delegates.filter((d) => keepWeb && d.isWebClient).map((d) => d.address);
  const keepDelegate = new Set(account.keepDelegates.map((k) => k.toLowerCase()));
  const keptKeys = requested.filter((d) => keepDelegate.has(d.toLowerCase()));
  const reason = `kill-switch: drawdown ${drawdownPct.toFixed(2)}% now, 1-minute re-read ${reread.drawdownPct.toFixed(1)}% ≥ ${levelPct}% at ${new Date(crossing.at).toISOString()}`;
  const [minuteBefore, trough] = reread.minutes;
  const evidence = {
    levelPct,
    drawdownPct,
    asOf: measured.asOf,
    crossingAt: crossing.at,
    crossingPct: crossing.drawdownPct,
    heldSince: crossing.since,
    rereadPct: reread.drawdownPct,
    rereadFrom: reread.from,
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
  const occasion = { at: state?.status === 'pending' ? state.since : poll.dueAt, generation: version ?? 0 };
  const action: KillSwitchAction = deps.revoke
    ? {
        kind: 'requested',
        outcome: await deps.revoke({ account: account.address, rule: 'kill-switch', reason, delegates: requested as Address[], evidence, occasion, now }),
      }
    : { kind: 'not-set-up' };
  deps.log.warn('kill switch fired', { account: account.address, reason, action: action.kind === 'requested' ? action.outcome.kind : action.kind });
  deps.counters.count('KillSwitchFired');
  const firing: KillSwitchFiring = {
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
    names: delegates.map((d) => ({ address: d.address, name: d.name })),
    action,
  };
  // One notice per firing: the id is the newest point's, which a re-run of the same poll sees again.
  const event: NotifyEvent = {
    kind: 'kill-switch',
    eventId: `kill-switch:${account.address.toLowerCase()}:${measured.asOf}`,
    account: account.address,
    at: now,
    firing,
  };
  // `revoking` until the signer settles the decision; without a decision to sign, fired with what the service answered.
  const next: KillSwitchState =
    action.kind === 'requested' && action.outcome.kind === 'queued'
      ? { status: 'revoking', at: now, decisionId: action.outcome.decisionId }
      : { status: 'fired', at: now, outcome: action.kind === 'requested' ? action.outcome.kind : action.kind };
  return { events: [event], outcome: 'fire', commit: () => save(next) };
}

/** The re-read's verdict, and whether it read the chain or the account's own `1m` points. */
type Reread = (Exclude<RereadVerdict, { kind: 'unreadable' }> & { readonly from: 'stored' | 'chain' }) | { readonly kind: 'unreadable' };

/**
 * The `1m` re-read of the crossing: one or two requests, taken from the budget (none left:
 * unreadable). A `1m` account's own series is that curve, read from the chain within the last
 * interval: its points are used and no request is made, unless a minute it needs is missing.
 */
async function rereadPeakAndTrough(
  deps: KillSwitchDeps,
  account: TrackedAccount,
  series: NonNullable<PendingAlerts['measured']>['series'],
  crossing: KillSwitchCrossing,
  levelPct: number,
): Promise<Reread> {
  const at = { peakAt: crossing.peakAt, troughAt: crossing.at };
  if (account.interval === '1m') {
    const stored = rereadDrawdown(series, at, series, levelPct);
    if (stored.kind !== 'unreadable') return { ...stored, from: 'stored' };
  }
  const windows = rereadWindows(crossing.peakAt, crossing.at);
  if (deps.budget && !deps.budget.tryTake(windows.length)) return { kind: 'unreadable' };
  try {
    const pages = await Promise.all(
      windows.map(async (w) => {
        const page = await deps.chain.getPortfolio({ account: account.address, from: w.from, to: w.to, interval: '1m' });
        return alignCurves(page.equity, page.pnl);
      }),
    );
    const read = rereadDrawdown(series, at, pages.flat(), levelPct);
    return read.kind === 'unreadable' ? read : { ...read, from: 'chain' };
  } catch (error) {
    if (error instanceof ChainError) return { kind: 'unreadable' };
    throw error;
  }
}

/** Whether the drawdown measured on the points up to `at` (tracking start) had reached `levelPct`. */
function reachedBefore(series: NonNullable<PendingAlerts['measured']>['series'], at: number, levelPct: number): boolean {
  const before = drawdown(series.filter((p) => p.timestamp <= at));
  return before !== null && before.currentPct >= levelPct;
}

function sameState(a: KillSwitchState, b: KillSwitchState): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function clampPct(value: number): number {
  return Math.min(100, Math.max(0, value));
}
