import type { Delegate } from '../../chain/schemas';
import { checkDelegates, type SeenDelegate } from '../../domain/delegateAlerts';
import { delegateDigest, formatDelegateMark, nextNoticeAt } from '../../domain/delegateMark';
import type { TrackedAccount } from '../../domain/account';
import type { DelegateView, DelegateViewRepository } from '../../store/delegateViewRepository';
import type { NotifyEvent } from '../../messages/notifyMessage';
import type { PendingAlerts } from './evaluateDrawdown';
import { guardNewDelegates, type GuardDeps } from './guardNewDelegates';

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
 * (`guardNewDelegates`, which may ask the protection service to revoke it), and its notice says so;
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
