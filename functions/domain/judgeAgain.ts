import { openAnnouncements } from './delegateAnnouncement';
import type { ObservedDelegate } from './delegateAlerts';
import type { DecisionUnit } from './decisionUnit';
import type { KnownDelegateState, UnknownSeen } from './judgeNewDelegates';
import type { RevokeUnknownMode } from './revokeUnknownMode';

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
