import type { Delegate } from '../../chain/schemas';
import { sendAll } from '../../queue/sendAll';
import type { TrackedAccount } from '../../domain/account';
import type { CollectDeps, CollectOutcome } from './collectDeps';
import { watchDelegates } from './watchDelegates';

/**
 * The full check of one account's delegates against the stored views: notices queued (stable ids),
 * changed views written, then the mark that lets the next checks skip all of this while nothing
 * changes. A crash before the mark is written only repeats the check. `sightedAt` is the check's
 * scheduled time (its job's `dueAt`), the occasion of any unknown-key decision it asks for.
 */
export async function fullDelegateCheck(
  deps: CollectDeps,
  account: TrackedAccount,
  current: readonly Delegate[],
  neverPolled: boolean,
  sightedAt: number,
): Promise<CollectOutcome> {
  const delegates = await watchDelegates({ ...deps.repos, revoke: deps.revoke }, account, current, {
    now: deps.now(),
    firstObservation: neverPolled,
    sightedAt,
  });
  await sendAll(
    deps.events,
    delegates.events.map((body) => ({ id: body.eventId, body })),
  );
  await delegates.commit();
  await deps.repos.accounts.setDelegateMark(account.address, delegates.mark);
  if (delegates.events.length > 0) deps.counters.count('AlertEvents', delegates.events.length);
  return { kind: 'delegates-checked', address: account.address, events: delegates.events.length, chainRequests: 1 };
}
