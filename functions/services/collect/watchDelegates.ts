import type { Delegate } from '../../chain/schemas';
import { checkDelegates, type ObservedDelegate, type SeenDelegate } from '../../domain/delegateAlerts';
import { delegateDigest, formatDelegateMark, nextNoticeAt } from '../../domain/delegateMark';
import type { TrackedAccount } from '../../domain/account';
import type { DelegateView, DelegateViewRepository } from '../../store/delegateViewRepository';
import type { NotifyEvent } from '../../messages/notifyMessage';
import type { PendingAlerts } from './evaluateDrawdown';
import type { Address } from '../../domain/address';
import type { DelegateProtection, UnknownKeyAction } from '../../domain/delegateProtection';
import type { DecisionUnit } from '../../domain/decisionUnit';
import { judgeAgain, pendingUnknownKeys } from '../../domain/judgeAgain';
import { judgeNewDelegates } from '../../domain/judgeNewDelegates';
import type { ProtectiveRevoker } from '../../domain/protectiveAction';
import type { DecisionRepository } from '../../store/decisionRepository';
import type { KnownDelegatesRepository, UnknownKeyRecord } from '../../store/knownDelegatesRepository';

const sameSeen = (a: SeenDelegate, b: SeenDelegate): boolean =>
  a.expiryMs === b.expiryMs &&
  a.name === b.name &&
  a.isWebClient === b.isWebClient &&
  a.firstSeenAt === b.firstSeenAt &&
  a.expiredNoticeSent === b.expiredNoticeSent &&
  a.removedAt === b.removedAt &&
  a.generation === b.generation &&
  a.warningsSent.join() === b.warningsSent.join();

/**
 * Compares the delegates the chain lists with those remembered and turns what changed into
 * notify events (new delegate, expiry warning, expired). Removals are remembered as tombstones
 * and shown in the next report. Like `evaluateDrawdown`, the state write is deferred to
 * `commit()` and only changed views are written. `mark` is what the delegate watch may store on
 * the account once committed, to skip later checks that would find the same. With
 * `--revoke-unknown` on, each new delegate is judged known, announced or unknown first
 * (`guardNewDelegates` below, which may ask the protection service to revoke it), and its notice says so;
 * an unknown key still listed whose revocation was refused or failed is judged again once, with a
 * notice of its own. `sightedAt` is the check's scheduled time (its job's `dueAt`).
 */
export async function watchDelegates(
  deps: { delegates: DelegateViewRepository } & GuardDeps,
  account: TrackedAccount,
  current: readonly Delegate[],
  options: { now: number; firstObservation: boolean; sightedAt: number },
): Promise<Pick<PendingAlerts, 'events' | 'commit'> & { mark: string }> {
  const views = await deps.delegates.listForAccount(account.address);
  const previous = new Map<string, SeenDelegate>(views.map((v) => [v.delegate, toSeen(v)]));
  const { events, next } = checkDelegates({
    account: account.address,
    previous,
    current,
    warnDays: account.expiryWarnDays,
    now: options.now,
    firstObservation: options.firstObservation && views.length === 0,
  });
  const fresh = events.flatMap((e) => (e.kind === 'new-delegate' ? [e.delegate] : []));
  const listedBefore = views.filter((v) => v.removedAt === null).map((v) => v.delegate);
  const guard = await guardNewDelegates(deps, account, { current, fresh, listedBefore, now: options.now, sightedAt: options.sightedAt });
  const changed: DelegateView[] = [];
  for (const [delegate, seen] of next) {
    const before = previous.get(delegate);
    if (!before || !sameSeen(before, seen)) changed.push(toView(account.address, delegate, seen, options.now));
  }
  const messages: NotifyEvent[] = [];
  for (const event of events) {
    const base = { eventId: event.id, account: account.address, at: options.now };
    if (event.kind === 'new-delegate') {
      const protection = guard.protections.get(event.delegate.address);
      messages.push({ ...base, kind: 'new-delegate', delegate: event.delegate, firstSeenAt: event.firstSeenAt, ...(protection ? { protection } : {}) });
    } else if (event.kind === 'expiry-warning')
      messages.push({ ...base, kind: 'expiry-warning', delegate: event.delegate, expiryMs: event.expiryMs, stepDays: event.stepDays });
    else if (event.kind === 'expired') messages.push({ ...base, kind: 'expired', delegate: event.delegate, expiryMs: event.expiryMs });
  }
  // An unknown key judged again (its revocation was refused or failed): its notice says what was done now.
  for (const [address, protection] of guard.judgedAgain) {
    const seen = next.get(address);
    const delegate = current.find((d) => d.address === address);
    if (!seen || !delegate) continue;
    messages.push({
      eventId: `delegate:${account.address}:${address}:${seen.generation}:judged-again:${options.sightedAt}`,
      account: account.address,
      at: options.now,
      kind: 'new-delegate',
      delegate,
      firstSeenAt: seen.firstSeenAt,
      protection,
    });
  }
  // A decision to see settled, or a retry time, makes the next check a full one even if the list is unchanged.
  const noticeAt = nextNoticeAt(next, account.expiryWarnDays);
  const recheckAt = guard.recheckAt === null ? noticeAt : noticeAt === null ? guard.recheckAt : Math.min(noticeAt, guard.recheckAt);
  const mark = formatDelegateMark({ digest: delegateDigest(current), recheckAt });
  return {
    events: messages,
    mark,
    commit: async () => {
      await guard.commit();
      if (changed.length > 0) await deps.delegates.putMany(changed);
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
interface GuardResult {
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
async function guardNewDelegates(
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
