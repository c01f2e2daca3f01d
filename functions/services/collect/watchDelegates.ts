import type { Delegate } from '../../chain/schemas';
import type { SeenDelegate } from '../../domain/delegateAlerts';
import { decideDelegateCheck, type DelegateCheckDecision, type DelegateCheckLoad, type UnknownKeyJudgment } from '../../domain/decideDelegateCheck';
import type { TrackedAccount } from '../../domain/account';
import type { DelegateView, DelegateViewRepository } from '../../store/delegateViewRepository';
import type { NotifyEvent } from '../../messages/notifyMessage';
import type { PendingAlerts } from './evaluateDrawdown';
import type { Address } from '../../domain/address';
import type { UnknownKeyAction } from '../../domain/delegateProtection';
import type { DecisionUnit } from '../../domain/decisionUnit';
import type { ProtectiveRevoker } from '../../domain/protectiveAction';
import type { DecisionRepository } from '../../store/decisionRepository';
import type { KnownDelegatesRepository } from '../../store/knownDelegatesRepository';
import type { AlertStateRepository } from '../../store/alertStateRepository';
import type { LatestUnknownKeyDecision } from '../../domain/recentUnknownKeyDecision';
import { recordLatestUnknownKeyDecision } from '../../store/unknownKeyDecisionItem';

/**
 * The full delegate check of one account, loaded → decided → delivered. Loads the stored views
 * and, with `--revoke-unknown` on, the account's protection state and the signer's unit of each
 * unknown key it may judge again; `domain/decideDelegateCheck` decides the notices (new delegate,
 * expiry warning, expired), the verdict on each new delegate, the keys judged again, the writes
 * and the mark; then each unknown key the mode revokes is asked of the protection service (one
 * request per delegate, reason `unknown delegate`) and its notice says what became of it.
 * Removals are remembered as tombstones and shown in the next report. Like `evaluateDrawdown`,
 * the state writes are deferred to `commit()`, made once the notices are queued, and only changed
 * views are written. `mark` is what the delegate watch may store on the account once committed,
 * to skip later checks that would find the same. `sightedAt` is the check's scheduled time (its
 * job's `dueAt`): a redelivered job asks for the decisions it already made.
 */
export async function watchDelegates(
  deps: { delegates: DelegateViewRepository } & GuardDeps,
  account: TrackedAccount,
  current: readonly Delegate[],
  options: { now: number; firstObservation: boolean; sightedAt: number },
): Promise<DelegateCheck> {
  const load = await loadDelegateCheck(deps, account, current, options);
  const decision = decideDelegateCheck(load);
  return deliverDelegateCheck(deps, account.address, decision, options);
}

/**
 * A delegate check decided and acted on: its notices, `commit()` for its writes, the mark, and the
 * last decision it queued for an unknown key (`null`: none), which `commit()` keeps on the account's
 * alert states for the desk's overview.
 */
export type DelegateCheck = Pick<PendingAlerts, 'events' | 'commit'> & { mark: string; unknownKeyDecision: LatestUnknownKeyDecision | null };

/** The reason unknown-key revocations carry into the decision record and the audit. */
export const UNKNOWN_DELEGATE_REASON = 'unknown delegate';

/** What unknown-key protection needs: its state, the signer's results, and the protection service (absent: protection is not set up). */
export interface GuardDeps {
  readonly knownDelegates: KnownDelegatesRepository;
  /** Where the signer keeps what became of each decision's delegates: an unknown key refused is judged again. */
  readonly decisions: Pick<DecisionRepository, 'unit'>;
  /** Where the latest decision queued for an unknown key is kept (an alert state), for the desk's overview. */
  readonly alerts: Pick<AlertStateRepository, 'get' | 'compareAndSet'>;
  readonly revoke?: ProtectiveRevoker | undefined;
}

/**
 * Everything the decision needs, read at once: the stored views, and (mode on) the protection
 * state, then the unit of each unknown key listed now whose decision was queued and not judged
 * again yet: a superset of the keys the decision judges again (it leaves out the new, known and
 * announced ones), chosen from the state alone so that no decision runs between the reads.
 */
async function loadDelegateCheck(
  deps: { delegates: DelegateViewRepository } & GuardDeps,
  account: TrackedAccount,
  current: readonly Delegate[],
  options: { now: number; firstObservation: boolean; sightedAt: number },
): Promise<DelegateCheckLoad> {
  const [views, state] = await Promise.all([
    deps.delegates.listForAccount(account.address),
    account.revokeUnknown === 'off' ? null : deps.knownDelegates.read(account.address),
  ]);
  const listed = new Set(current.map((d) => d.address.toLowerCase()));
  const awaited = (state?.unknownSeen ?? []).flatMap(({ delegate, decisionId, judgedAgain }) =>
    decisionId !== undefined && judgedAgain !== true && listed.has(delegate.toLowerCase()) ? [{ delegate, decisionId }] : [],
  );
  const units = new Map<string, DecisionUnit | null>(
    await Promise.all(awaited.map(async ({ delegate, decisionId }) => [delegate.toLowerCase(), await deps.decisions.unit(decisionId, delegate)] as const)),
  );
  return {
    account,
    current,
    previous: new Map<string, SeenDelegate>(views.map((v) => [v.delegate, toSeen(v)])),
    protection: state === null ? null : { state, units },
    ...options,
  };
}

/**
 * Acts on a decision: asks the protection service about each unknown key to revoke (in order),
 * and returns the notices, telling what was done, the mark, and the writes for `commit()` (the
 * protection state with the decision asked for each unknown key, then the changed views).
 */
async function deliverDelegateCheck(
  deps: { delegates: DelegateViewRepository } & GuardDeps,
  account: Address,
  decision: DelegateCheckDecision,
  options: { now: number; sightedAt: number },
): Promise<DelegateCheck> {
  const actions = new Map<UnknownKeyJudgment, UnknownKeyAction>();
  for (const key of decision.unknownKeys) actions.set(key, await actOn(deps.revoke, account, key, options));
  const decisionOf = (key: UnknownKeyJudgment) => queuedDecision(actions.get(key));
  const events = decision.notices.map(({ event, guard }): NotifyEvent => {
    const base = { eventId: event.id, account, at: options.now };
    if (event.kind === 'expiry-warning')
      return { ...base, kind: 'expiry-warning', delegate: event.delegate, expiryMs: event.expiryMs, stepDays: event.stepDays };
    if (event.kind === 'expired') return { ...base, kind: 'expired', delegate: event.delegate, expiryMs: event.expiryMs };
    const protection =
      guard === null
        ? null
        : guard.verdict === 'announced'
          ? guard
          : {
              verdict: 'unknown' as const,
              mode: guard.key.mode,
              webSession: guard.key.webSession,
              // Every key a notice names is one of `unknownKeys`, acted on above.
              action: actions.get(guard.key) ?? { kind: 'not-set-up' as const },
              repeatWithinDay: guard.key.repeatWithinDay,
              ...(guard.key.withinDay > 0 ? { withinDay: guard.key.withinDay } : {}),
            };
    return { ...base, kind: 'new-delegate', delegate: event.delegate, firstSeenAt: event.firstSeenAt, ...(protection ? { protection } : {}) };
  });
  const changed = [...decision.changedViews].map(([delegate, seen]) => toView(account, delegate, seen, options.now));
  // A new unknown key's queued decision is looked at again until it settles (the key gone, or judged again).
  const watchQueued = decision.unknownKeys.some((key) => !key.again && decisionOf(key) !== null);
  const lastQueued = decision.unknownKeys
    .map(decisionOf)
    .filter((id) => id !== null)
    .at(-1);
  const unknownKeyDecision = lastQueued === undefined ? null : { decisionId: lastQueued, at: options.now };
  return {
    events,
    mark: watchQueued ? decision.markIfQueued : decision.mark,
    unknownKeyDecision,
    commit: async () => {
      const { knownKeys } = decision;
      if (knownKeys !== null) {
        await deps.knownDelegates.recordKeys(account, {
          known: knownKeys.known,
          source: knownKeys.source,
          unknown: decision.unknownKeys.map((key) => {
            const decisionId = decisionOf(key);
            return {
              key: key.delegate.address as Address,
              ...(key.seenAt === undefined ? {} : { at: key.seenAt }),
              ...(decisionId === null ? {} : { decisionId }),
              ...(key.again ? { judgedAgain: true } : {}),
            };
          }),
          at: options.now,
          ...(knownKeys.baselineAt === undefined ? {} : { baselineAt: knownKeys.baselineAt }),
        });
      }
      if (changed.length > 0) await deps.delegates.putMany(changed);
      if (unknownKeyDecision !== null) await recordLatestUnknownKeyDecision(deps.alerts, account, unknownKeyDecision);
    },
  };
}

function toSeen(v: DelegateView): SeenDelegate {
  return {
    expiryMs: v.expiryMs,
    name: v.name,
    isWebClient: v.isWebClient,
    firstSeenAt: v.firstSeenAt,
    warningsSent: v.warningsSent,
    expiredNoticeSent: v.expiredNoticeSent,
    removedAt: v.removedAt,
    generation: v.generation,
  };
}

function toView(address: string, delegate: string, seen: SeenDelegate, now: number): DelegateView {
  return { address, delegate, ...seen, lastSeenAt: seen.removedAt ?? now };
}

function queuedDecision(action: UnknownKeyAction | undefined): string | null {
  return action?.kind === 'requested' && action.outcome.kind === 'queued' ? action.outcome.decisionId : null;
}

/** One unknown key: kept (a web session under `api-keys`), not set up, or asked of the protection service. */
async function actOn(
  revoke: ProtectiveRevoker | undefined,
  account: Address,
  key: UnknownKeyJudgment,
  occasion: { now: number; sightedAt: number },
): Promise<UnknownKeyAction> {
  const { delegate, again } = key;
  if (!key.revoke) return { kind: 'kept-web-session' };
  if (!revoke) return { kind: 'not-set-up' };
  const outcome = await revoke({
    account,
    rule: 'unknown-delegate',
    reason: UNKNOWN_DELEGATE_REASON,
    delegates: [delegate.address as Address],
    evidence: {
      delegate: delegate.address,
      firstSeenAt: key.firstSeenAt,
      readAt: occasion.now,
      isWebClient: delegate.isWebClient,
      mode: key.mode,
      judgedAgain: again,
      ...(delegate.name === null ? {} : { name: delegate.name }),
    },
    // The check's scheduled time: a redelivered job makes the same decision; a judgment again is another occasion.
    occasion: { at: occasion.sightedAt, generation: again ? 1 : 0 },
    now: occasion.now,
  });
  return { kind: 'requested', outcome };
}
