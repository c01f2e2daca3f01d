import type { Address } from './address';
import { checkDelegates, type DelegateEvent, type ObservedDelegate, type SeenDelegate } from './delegateAlerts';
import { delegateDigest, formatDelegateMark, nextNoticeAt } from './delegateMark';
import type { DecisionUnit } from './decisionUnit';
import { openAnnouncements } from './delegateAnnouncement';
import { judgeNewDelegates, type KnownDelegateState, type UnknownSeen } from './judgeNewDelegates';
import type { RevokeUnknownMode } from './revokeUnknownMode';

/** What a full delegate check loaded before deciding anything. */
export interface DelegateCheckLoad {
  readonly account: { readonly address: string; readonly expiryWarnDays: readonly number[]; readonly revokeUnknown: RevokeUnknownMode };
  /** The delegates the chain lists now (a successful read). */
  readonly current: readonly ObservedDelegate[];
  /** The stored views by delegate address (tombstones included). */
  readonly previous: ReadonlyMap<string, SeenDelegate>;
  /**
   * With `--revoke-unknown` on: the account's protection state, and the signer's unit for each
   * unknown key it may judge again (by lower-case address; absent or `null`: not settled yet).
   * `null` when the mode is off (nothing of it is read).
   */
  readonly protection: { readonly state: KnownDelegateState; readonly units: ReadonlyMap<string, DecisionUnit | null> } | null;
  readonly now: number;
  /** Nothing was polled for the account before: with no stored view either, its delegates are its baseline, not news. */
  readonly firstObservation: boolean;
  /** The check's scheduled time (its job's `dueAt`): the occasion of any decision it asks for. */
  readonly sightedAt: number;
}

/** An unknown key to act on: to revoke (`revoke`), or kept as a web session under `api-keys` (and raised). */
export interface UnknownKeyJudgment {
  readonly delegate: ObservedDelegate;
  readonly mode: Exclude<RevokeUnknownMode, 'off'>;
  readonly revoke: boolean;
  readonly webSession: boolean;
  /** When the key was first seen unknown (the evidence's `firstSeenAt`). */
  readonly firstSeenAt: number;
  /** A key listed again whose revocation was refused or failed, judged once more. */
  readonly again: boolean;
  /** The first sighting kept for a key judged again (`undefined`: none was kept, the write dates it now). */
  readonly seenAt: number | undefined;
  /** Another unknown key within a day (the notice says the owner key itself may be held by someone else). */
  readonly repeatWithinDay: boolean;
  /** The key's place among the unknown keys first seen within a day (1: the first; 3: two came before it); 0 for a key judged again. */
  readonly withinDay: number;
}

/** How unknown-key protection treats a new-delegate notice's delegate; `null`: plain (off, or known). */
export type NoticeGuard =
  { readonly verdict: 'announced'; readonly expiresAt: number } | { readonly verdict: 'unknown'; readonly key: UnknownKeyJudgment } | null;

/** One notice to queue; an unknown key's notice tells what was done about it once that is known. */
export interface DelegateNoticeOut {
  readonly event: Exclude<DelegateEvent, { kind: 'removed' }>;
  readonly guard: NoticeGuard;
}

/** The protection state to write after the notices are queued (the unknown keys are written from `unknownKeys` with their decisions). */
export interface KnownKeysWrite {
  readonly known: readonly Address[];
  readonly source: 'baseline' | 'announced';
  readonly baselineAt: number | undefined;
}

/** Everything a full check does, as data: what to ask, tell and store. */
export interface DelegateCheckDecision {
  /** The notices in order: the events of the listed delegates, then the keys judged again. */
  readonly notices: readonly DelegateNoticeOut[];
  /** Unknown keys to act on, in order (each asks the protection service when `revoke` and it is set up). */
  readonly unknownKeys: readonly UnknownKeyJudgment[];
  /** Views that changed, by delegate address: only these are written. */
  readonly changedViews: ReadonlyMap<string, SeenDelegate>;
  /** The protection state to write; `null`: nothing was learned or seen. */
  readonly knownKeys: KnownKeysWrite | null;
  /** The mark to store on the account once committed. */
  readonly mark: string;
  /** The mark instead, when a new unknown key's decision was queued: it is looked at again (now) until it settles. */
  readonly markIfQueued: string;
}

/**
 * Decides one full delegate check on what was loaded: the notices (new delegate, expiry warning,
 * expired; `domain/delegateAlerts`), with `--revoke-unknown` on the verdict on each new delegate
 * (`domain/judgeNewDelegates`) and the unknown keys whose refused or failed revocation is judged
 * again (`judgeAgain`, below), the views to write, the protection state to write, and the mark
 * (`domain/delegateMark`) that lets the next checks skip all of this while nothing changes.
 */
export function decideDelegateCheck(load: DelegateCheckLoad): DelegateCheckDecision {
  const { account, current, previous, now, sightedAt } = load;
  const { events, next } = checkDelegates({
    account: account.address,
    previous,
    current,
    warnDays: account.expiryWarnDays,
    now,
    firstObservation: load.firstObservation && previous.size === 0,
  });
  const fresh = events.flatMap((e) => (e.kind === 'new-delegate' ? [e.delegate] : []));
  const listedBefore = [...previous].filter(([, v]) => v.removedAt === null).map(([delegate]) => delegate);
  const guard = guardNewDelegates(account, load.protection, { current, fresh, listedBefore, now });

  const changedViews = new Map<string, SeenDelegate>();
  for (const [delegate, seen] of next) {
    const before = previous.get(delegate);
    if (!before || !sameSeen(before, seen)) changedViews.set(delegate, seen);
  }
  const notices: DelegateNoticeOut[] = [];
  for (const event of events) {
    if (event.kind === 'removed') continue;
    notices.push({ event, guard: event.kind === 'new-delegate' ? (guard.guards.get(event.delegate.address) ?? null) : null });
  }
  // An unknown key judged again: its notice says what was done now.
  for (const key of guard.unknownKeys) {
    const seen = key.again ? next.get(key.delegate.address) : undefined;
    if (!seen) continue;
    const id = `delegate:${account.address}:${key.delegate.address}:${seen.generation}:judged-again:${sightedAt}`;
    notices.push({
      event: { kind: 'new-delegate', id, account: account.address, delegate: key.delegate, firstSeenAt: seen.firstSeenAt },
      guard: { verdict: 'unknown', key },
    });
  }
  // A decision to see settled, or a retry time, makes the next check a full one even if the list is unchanged.
  const digest = delegateDigest(current);
  const recheckAt = earliest(nextNoticeAt(next, account.expiryWarnDays), guard.recheckAt);
  return {
    notices,
    unknownKeys: guard.unknownKeys,
    changedViews,
    knownKeys: guard.knownKeys,
    mark: formatDelegateMark({ digest, recheckAt }),
    markIfQueued: formatDelegateMark({ digest, recheckAt: earliest(recheckAt, now) }),
  };
}

interface GuardDecision {
  /** By delegate address as listed. */
  readonly guards: ReadonlyMap<string, NoticeGuard>;
  readonly unknownKeys: UnknownKeyJudgment[];
  readonly recheckAt: number | null;
  readonly knownKeys: KnownKeysWrite | null;
}

const NO_GUARD: GuardDecision = { guards: new Map(), unknownKeys: [], recheckAt: null, knownKeys: null };

/**
 * Unknown-key protection on one successful read: the verdict on each new delegate (known,
 * announced, or unknown and revoked or kept), and each unknown key still listed whose decision
 * settled refused or failed, judged again once when its retry time has come.
 */
function guardNewDelegates(
  account: DelegateCheckLoad['account'],
  protection: DelegateCheckLoad['protection'],
  read: { current: readonly ObservedDelegate[]; fresh: readonly ObservedDelegate[]; listedBefore: readonly string[]; now: number },
): GuardDecision {
  const mode = account.revokeUnknown;
  if (mode === 'off' || protection === null) return NO_GUARD;
  const { state, units } = protection;
  const judged = judgeNewDelegates({ mode, state, ...read });
  const guards = new Map<string, NoticeGuard>();
  const unknownKeys: UnknownKeyJudgment[] = [];
  for (const delegate of read.fresh) {
    const verdict = judged.verdicts.get(delegate.address);
    if (verdict === undefined || verdict.kind === 'known') continue;
    if (verdict.kind === 'announced') {
      guards.set(delegate.address, { verdict: 'announced', expiresAt: verdict.expiresAt });
      continue;
    }
    const key: UnknownKeyJudgment = {
      delegate,
      mode,
      revoke: verdict.revoke,
      webSession: verdict.webSession,
      firstSeenAt: read.now,
      again: false,
      seenAt: undefined,
      repeatWithinDay: judged.repeatWithinDay,
      withinDay: judged.earlierWithinDay + unknownKeys.length + 1,
    };
    unknownKeys.push(key);
    guards.set(delegate.address, { verdict: 'unknown', key });
  }
  const pending = pendingUnknownKeys(state, read.current, read.fresh, read.now);
  const again = judgeAgain({ mode, pending, units, now: read.now });
  for (const { delegate, revoke, webSession } of again.judge) {
    const first = state.unknownSeen.find((u) => u.delegate.toLowerCase() === delegate.address.toLowerCase());
    unknownKeys.push({
      delegate,
      mode,
      revoke,
      webSession,
      firstSeenAt: first?.at ?? read.now,
      again: true,
      seenAt: first?.at,
      repeatWithinDay: false,
      withinDay: 0,
    });
  }
  const learned = judged.learn.length > 0 || unknownKeys.length > 0 || judged.tookBaseline;
  return {
    guards,
    unknownKeys,
    recheckAt: again.recheckAt,
    knownKeys: learned
      ? { known: judged.learn, source: judged.tookBaseline ? 'baseline' : 'announced', baselineAt: judged.tookBaseline ? read.now : undefined }
      : null,
  };
}

function earliest(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.min(a, b);
}

function sameSeen(a: SeenDelegate, b: SeenDelegate): boolean {
  return (
    a.expiryMs === b.expiryMs &&
    a.name === b.name &&
    a.isWebClient === b.isWebClient &&
    a.firstSeenAt === b.firstSeenAt &&
    a.expiredNoticeSent === b.expiredNoticeSent &&
    a.removedAt === b.removedAt &&
    a.generation === b.generation &&
    a.warningsSent.join() === b.warningsSent.join()
  );
}

/** An unknown key asked about before and listed now, whose decision's result decides whether it is judged again. */
export interface PendingUnknown {
  readonly seen: UnknownSeen & { readonly decisionId: string };
  readonly listed: ObservedDelegate;
}

/**
 * The unknown keys a successful read lists again (not new to the watch) whose decision was
 * queued and that were not judged again yet: neither known nor announced now. Their decisions'
 * units say whether to judge them again (`judgeAgain`).
 */
export function pendingUnknownKeys(
  state: KnownDelegateState,
  current: readonly ObservedDelegate[],
  fresh: readonly ObservedDelegate[],
  now: number,
): PendingUnknown[] {
  const listed = new Map(current.map((d) => [d.address.toLowerCase(), d]));
  const isFresh = new Set(fresh.map((d) => d.address.toLowerCase()));
  const open = openAnnouncements(state.announcements, now);
  return state.unknownSeen.flatMap((seen) => {
    const key = seen.delegate.toLowerCase();
    const delegate = listed.get(key);
    if (seen.decisionId === undefined || seen.judgedAgain === true || delegate === undefined) return [];
    if (isFresh.has(key) || state.known.has(key) || open.has(key)) return [];
    return [{ seen: { ...seen, decisionId: seen.decisionId }, listed: delegate }];
  });
}

/** Which pending keys to judge again now, and when the watch must look again (`null`: no need). */
export interface JudgeAgainResult {
  readonly judge: readonly { readonly delegate: ObservedDelegate; readonly revoke: boolean; readonly webSession: boolean }[];
  readonly recheckAt: number | null;
}

/**
 * Decides, for each pending unknown key (see `pendingUnknownKeys`) and the unit its decision's
 * signer kept for it (`units`, by lower-case address; absent or not done: not settled yet),
 * whether to judge it again now: once its decision settled without removing it (refused or
 * failed) and the result's `retryAt` has come (at once for most causes, when the breaker closes
 * or a cap slot frees for those). A key is judged again once per sighting: a second refusal is
 * told, not retried. `recheckAt` is the earliest time a pending key needs another look: now while
 * a decision is unsettled, its `retryAt` while that is ahead.
 */
export function judgeAgain(input: {
  readonly mode: RevokeUnknownMode;
  readonly pending: readonly PendingUnknown[];
  readonly units: ReadonlyMap<string, DecisionUnit | null>;
  readonly now: number;
}): JudgeAgainResult {
  if (input.mode === 'off') return { judge: [], recheckAt: null };
  const judge: { delegate: ObservedDelegate; revoke: boolean; webSession: boolean }[] = [];
  let recheckAt: number | null = null;
  const later = (at: number) => (recheckAt = recheckAt === null ? at : Math.min(recheckAt, at));
  for (const { listed } of input.pending) {
    const unit = input.units.get(listed.address.toLowerCase()) ?? null;
    if (unit?.state !== 'done') {
      later(input.now);
      continue;
    }
    const { status, retryAt } = unit.result;
    if (status === 'revoked' || status === 'gone' || retryAt === null) continue;
    if (retryAt > input.now) {
      later(retryAt);
      continue;
    }
    judge.push({ delegate: listed, webSession: listed.isWebClient, revoke: !listed.isWebClient || input.mode === 'all' });
  }
  return { judge, recheckAt };
}
