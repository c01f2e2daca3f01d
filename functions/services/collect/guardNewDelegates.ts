import type { Address } from '../../domain/address';
import type { ObservedDelegate } from '../../domain/delegateAlerts';
import type { DelegateProtection, UnknownKeyAction } from '../../domain/delegateProtection';
import type { DecisionUnit } from '../../domain/decisionUnit';
import { judgeAgain, pendingUnknownKeys } from '../../domain/judgeAgain';
import { judgeNewDelegates } from '../../domain/judgeNewDelegates';
import type { ProtectiveRevoker } from '../../domain/protectiveAction';
import type { TrackedAccount } from '../../domain/account';
import type { DecisionRepository } from '../../store/decisionRepository';
import type { KnownDelegatesRepository, UnknownKeyRecord } from '../../store/knownDelegatesRepository';

/** The reason unknown-key revocations carry into the decision record and the audit. */
export const UNKNOWN_DELEGATE_REASON = 'unknown delegate';

/** What unknown-key protection needs: its state, the signer's results, and the protection service (absent: protection is not set up). */
export interface GuardDeps {
  readonly knownDelegates: KnownDelegatesRepository;
  /** Where the signer keeps what became of each decision's delegates: an unknown key refused is judged again. */
  readonly decisions: Pick<DecisionRepository, 'unit'>;
  readonly revoke?: ProtectiveRevoker | undefined;
}

/** What the guard decided for a check: the protection each new delegate's notice carries, and the state write. */
export interface GuardResult {
  /** By delegate address as listed; a delegate not here gets the plain new-delegate notice. */
  readonly protections: ReadonlyMap<string, DelegateProtection>;
  /** Unknown keys still listed whose revocation was refused or failed, judged again now (by address as listed). */
  readonly judgedAgain: ReadonlyMap<string, DelegateProtection>;
  /** When the watch must check again even if the list does not change (a decision to see settled, a retry time); `null`: no need. */
  readonly recheckAt: number | null;
  readonly commit: () => Promise<void>;
}

const NOTHING: GuardResult = { protections: new Map(), judgedAgain: new Map(), recheckAt: null, commit: async () => undefined };

/**
 * Unknown-key protection for one successful delegate read (`--revoke-unknown`, see
 * `domain/judgeNewDelegates`): reads the account's known keys and announcements (only when the
 * mode is on), asks the protection service to revoke each unknown delegate that the mode revokes
 * (one request per delegate, reason `unknown delegate`, with the delegate, when it was first
 * seen and the read time as evidence) and says, per new delegate, what its notice is to tell.
 * An unknown key still listed whose decision settled refused or failed (the signer's unit for it)
 * is judged again, once, when its retry time has come (`domain/judgeAgain`). A decision's
 * occasion is the check's scheduled time (`sightedAt`): a redelivered job asks for the decision
 * it already made. The known keys learned and the unknown keys seen (with the decision asked for
 * each) are written by `commit()`, after the notices are queued.
 */
export async function guardNewDelegates(
  deps: GuardDeps,
  account: Pick<TrackedAccount, 'address' | 'revokeUnknown'>,
  read: { current: readonly ObservedDelegate[]; fresh: readonly ObservedDelegate[]; listedBefore: readonly string[]; now: number; sightedAt: number },
): Promise<GuardResult> {
  const mode = account.revokeUnknown;
  if (mode === 'off') return NOTHING;
  const state = await deps.knownDelegates.read(account.address);
  const judged = judgeNewDelegates({ mode, state, ...read });
  const protections = new Map<string, DelegateProtection>();
  const recorded: UnknownKeyRecord[] = [];
  let recheckAt: number | null = null;
  for (const delegate of read.fresh) {
    const verdict = judged.verdicts.get(delegate.address);
    if (verdict === undefined || verdict.kind === 'known') continue;
    if (verdict.kind === 'announced') {
      protections.set(delegate.address, { verdict: 'announced', expiresAt: verdict.expiresAt });
      continue;
    }
    const action = await actOn(deps, account.address, delegate, verdict.revoke, mode, { ...read, firstSeenAt: read.now, again: false });
    const decisionId = queuedDecision(action);
    // A queued decision is looked at again until it settles (the key gone, or judged again).
    if (decisionId !== null) recheckAt = read.now;
    recorded.push({ key: delegate.address as Address, ...(decisionId === null ? {} : { decisionId }) });
    protections.set(delegate.address, { verdict: 'unknown', mode, webSession: verdict.webSession, action, repeatWithinDay: judged.repeatWithinDay });
  }

  const pending = pendingUnknownKeys(state, read.current, read.fresh, read.now);
  const units = new Map<string, DecisionUnit | null>();
  for (const p of pending) units.set(p.listed.address.toLowerCase(), await deps.decisions.unit(p.seen.decisionId, p.seen.delegate));
  const again = judgeAgain({ mode, pending, units, now: read.now });
  if (again.recheckAt !== null) recheckAt = recheckAt === null ? again.recheckAt : Math.min(recheckAt, again.recheckAt);
  const judgedAgain = new Map<string, DelegateProtection>();
  for (const { delegate, revoke, webSession } of again.judge) {
    const first = state.unknownSeen.find((u) => u.delegate.toLowerCase() === delegate.address.toLowerCase());
    const action = await actOn(deps, account.address, delegate, revoke, mode, { ...read, firstSeenAt: first?.at ?? read.now, again: true });
    const decisionId = queuedDecision(action);
    recorded.push({ key: delegate.address as Address, ...(first ? { at: first.at } : {}), ...(decisionId === null ? {} : { decisionId }), judgedAgain: true });
    judgedAgain.set(delegate.address, { verdict: 'unknown', mode, webSession, action, repeatWithinDay: false });
  }

  const learned = judged.learn.length > 0 || recorded.length > 0 || judged.tookBaseline;
  return {
    protections,
    judgedAgain,
    recheckAt,
    commit: async () => {
      if (!learned) return;
      await deps.knownDelegates.record(account.address, {
        known: judged.learn,
        source: judged.tookBaseline ? 'baseline' : 'announced',
        unknown: recorded,
        at: read.now,
        ...(judged.tookBaseline ? { baselineAt: read.now } : {}),
      });
    },
  };
}

function queuedDecision(action: UnknownKeyAction): string | null {
  return action.kind === 'requested' && action.outcome.kind === 'queued' ? action.outcome.decisionId : null;
}

async function actOn(
  deps: GuardDeps,
  account: Address,
  delegate: ObservedDelegate,
  revoke: boolean,
  mode: string,
  occasion: { now: number; sightedAt: number; firstSeenAt: number; again: boolean },
): Promise<UnknownKeyAction> {
  const { now, again } = occasion;
  if (!revoke) return { kind: 'kept-web-session' };
  if (!deps.revoke) return { kind: 'not-set-up' };
  const outcome = await deps.revoke({
    account,
    rule: 'unknown-delegate',
    reason: UNKNOWN_DELEGATE_REASON,
    delegates: [delegate.address as Address],
    evidence: {
      delegate: delegate.address,
      firstSeenAt: occasion.firstSeenAt,
      readAt: now,
      isWebClient: delegate.isWebClient,
      mode,
      judgedAgain: again,
      ...(delegate.name === null ? {} : { name: delegate.name }),
    },
    // The check's scheduled time: a redelivered job makes the same decision; a judgment again is another occasion.
    occasion: { at: occasion.sightedAt, generation: again ? 1 : 0 },
    now,
  });
  return { kind: 'requested', outcome };
}
