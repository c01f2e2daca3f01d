import { ChainError } from '../../chain/errors';
import type { ChainClient } from '../../chain/ports';
import type { TrackedAccount } from '../../domain/account';
import { decideKillSwitch, firedState, type KillSwitchDecision, type KillSwitchFacts, type KillSwitchState } from '../../domain/killSwitchDecision';
import { firingForNotice, type KillSwitchAction } from '../../domain/killSwitchFiring';
import type { ProtectiveRevoker } from '../../domain/protectiveAction';
import { alignCurves } from '../../domain/series';
import type { NotifyEvent } from '../../messages/notifyMessage';
import type { Counters, Log } from '../../shared/observability';
import type { AlertStateRepository } from '../../store/alertStateRepository';
import type { RefinementBudget } from './refinementBudget';
import { KILL_SWITCH_RULE } from '../../store/killSwitchStateItem';

/** What the kill switch needs besides what the poll loaded. */
export interface KillSwitchDeps {
  readonly chain: ChainClient;
  readonly alerts: Pick<AlertStateRepository, 'compareAndSet'>;
  /** Absent: nothing is revoked and the notice says protection is not set up. */
  readonly revoke?: ProtectiveRevoker | undefined;
  /** The confirmation's `1m` requests (one or two) come out of it; absent, they are made unbudgeted. */
  readonly budget?: RefinementBudget | undefined;
  readonly log: Log;
  readonly counters: Counters;
}

/** The events the evaluation raised, and its state write to make once they are queued. */
export interface KillSwitchResult {
  readonly events: NotifyEvent[];
  /** What the evaluation came to (for logs and tests). */
  readonly outcome: Exclude<KillSwitchDecision['kind'], 'read'>;
  readonly commit: () => Promise<void>;
}

/**
 * The kill switch of one account on a poll (`--kill-switch`), loaded → decided → delivered:
 * `decideKillSwitch` decides on what the poll loaded (the stored state, the exact series, a `1m`
 * account's own minutes, the delegates it read); when the confirmation needs what was not loaded
 * (the `1m` windows of another interval, from the refinement budget; the delegates), they are read
 * once and it decides again. On `fire` the protection service is asked to revoke (it leaves kept
 * and announced keys out) and one security notice is raised, whatever the service answered. A
 * refuted or unreadable confirmation acts on nothing and keeps the state, so the next poll decides
 * again. The state is written by `commit()`, after the notice is queued.
 */
export async function evaluateKillSwitch(deps: KillSwitchDeps, facts: KillSwitchFacts): Promise<KillSwitchResult> {
  const first = decideKillSwitch(facts);
  const decision = first.kind === 'read' ? decideKillSwitch({ ...facts, ...(await readForConfirmation(deps, facts.account.address, first)) }) : first;
  return deliverKillSwitch(deps, facts, decision);
}

/** What a `read` decision asked for: the `1m` windows (no points from an exhausted budget or a failed read) and the delegates (left out on a failed read). */
async function readForConfirmation(
  deps: Pick<KillSwitchDeps, 'chain' | 'budget'>,
  address: TrackedAccount['address'],
  read: Extract<KillSwitchDecision, { kind: 'read' }>,
): Promise<Partial<Pick<KillSwitchFacts, 'minutes' | 'delegates'>>> {
  if (read.windows.length > 0 && deps.budget && !deps.budget.tryTake(read.windows.length)) return { minutes: { from: 'chain', points: [] } };
  const chainRead = async <T>(call: () => Promise<T>): Promise<T | null> => {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ChainError) return null;
      throw error;
    }
  };
  const [pages, delegates] = await Promise.all([
    Promise.all(read.windows.map((w) => chainRead(() => deps.chain.getPortfolio({ account: address, from: w.from, to: w.to, interval: '1m' })))),
    read.delegates ? chainRead(() => deps.chain.getDelegateTraders(address)) : null,
  ]);
  const points = pages.some((page) => page === null) ? [] : pages.flatMap((page) => (page === null ? [] : alignCurves(page.equity, page.pnl)));
  return { ...(read.windows.length > 0 ? { minutes: { from: 'chain' as const, points } } : {}), ...(delegates === null ? {} : { delegates }) };
}

/** Acts on a decision: asks the protection service on `fire`, raises its notice, and returns the state write. */
async function deliverKillSwitch(
  deps: Omit<KillSwitchDeps, 'chain' | 'budget'>,
  facts: KillSwitchFacts,
  decision: KillSwitchDecision,
): Promise<KillSwitchResult> {
  const { account, stored, now } = facts;
  const save = async (next: KillSwitchState | null) => {
    if (next === null || (stored.state !== null && sameState(stored.state, next))) return;
    // A conflict is a concurrent poll of the same account (or `accounts rearm`): its write stands.
    await deps.alerts.compareAndSet(account.address, KILL_SWITCH_RULE, stored.version, next);
  };
  switch (decision.kind) {
    case 'nothing':
      // Debug: a held crossing (stale data, from before tracking, fired) repeats at every poll.
      if (decision.why !== 'off') deps.log.debug('kill switch: not acting', { account: account.address, why: decision.why });
      return { events: [], outcome: 'nothing', commit: () => save(decision.next) };
    case 'wait':
      deps.log.info('kill switch: not acting', { account: account.address, verdict: 'awaiting-confirmation', since: decision.since });
      return { events: [], outcome: 'wait', commit: () => save(decision.next) };
    case 'arm':
      return { events: [], outcome: 'arm', commit: () => save(decision.next) };
    case 'read':
    case 'refute': {
      const refuted = decision.kind === 'refute' && decision.why === 'refuted';
      deps.counters.count(refuted ? 'KillSwitchRefuted' : 'KillSwitchRereadUnavailable');
      deps.log.warn('kill switch: the 1m re-read does not confirm the level; nothing revoked', {
        account: account.address,
        outcome: refuted ? 'refuted' : 'reread-unavailable',
        ...(decision.kind === 'refute' ? decision.evidence : {}),
      });
      return { events: [], outcome: 'refute', commit: async () => undefined };
    }
    case 'fire': {
      const action: KillSwitchAction = deps.revoke ? { kind: 'requested', outcome: await deps.revoke(decision.request) } : { kind: 'not-set-up' };
      deps.log.warn('kill switch fired', {
        account: account.address,
        reason: decision.request.reason,
        action: action.kind === 'requested' ? action.outcome.kind : action.kind,
      });
      deps.counters.count('KillSwitchFired');
      // One notice per firing: the id is the newest point's, which a re-run of the same poll sees again.
      const event: NotifyEvent = {
        kind: 'kill-switch',
        eventId: `kill-switch:${account.address.toLowerCase()}:${decision.firing.asOf}`,
        account: account.address,
        at: now,
        // Its lists are cut to what one notice carries; the keys left out are counted.
        firing: firingForNotice({ ...decision.firing, action }),
      };
      return { events: [event], outcome: 'fire', commit: () => save(firedState(action, now)) };
    }
  }
}

function sameState(a: KillSwitchState, b: KillSwitchState): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
