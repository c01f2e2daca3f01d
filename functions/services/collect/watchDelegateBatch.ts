import { ChainError } from '../../chain/errors';
import type { Delegate } from '../../chain/schemas';
import { unchangedSinceMark } from '../../domain/delegateMark';
import type { DelegateWatchJob, WatchEntry } from '../../messages/collectJob';
import { sendAll } from '../../queue/sendAll';
import { currentDeadline } from '../../shared/deadline';
import { mapConcurrent } from '../../shared/concurrency';
import type { CollectDeps, CollectOutcome } from './collectDeps';
import { watchDelegates } from './watchDelegates';

/** Chain requests of one watch job in flight at once (each still waits on the instance's token bucket). */
export const WATCH_CONCURRENCY = 10;

/** What one delegate-watch job did. */
export interface WatchBatchOutcome {
  /** One outcome per account started: `delegates-checked`, `delegates-failed`, or `not-tracked`. */
  readonly outcomes: CollectOutcome[];
  /** Accounts whose delegates matched their mark: one chain request, no storage request. */
  readonly unchanged: number;
  /** Accounts not started because the invocation's deadline came: their next watch slot checks them. */
  readonly deferred: string[];
}

/**
 * The delegate watch of many accounts (a `delegate-watch` job): one `GET /delegate-traders` per
 * account, `WATCH_CONCURRENCY` at a time through the chain client (so within its rate budget).
 * Each account is decided twice, as the kill switch is: on the chain's list and the mark the
 * dispatcher read from the schedule index, an account with no change and no notice due since
 * (`domain/delegateMark`) is done: nothing is read or written. Otherwise the stored state is loaded
 * and the full check runs, as a curve poll's would (`watchDelegates`: load, one decision, then the
 * notices queued, the views and known keys written, then the new mark). Accounts not started by the invocation's deadline are left to
 * their next watch slot; a chain failure is counted (`DelegateWatchErrors`), logged and returned
 * as `delegates-failed` (the curve polls own the health). A single-account job of the older shape
 * (`scope: delegates`) comes here as a batch of one (`watchJobOf`).
 */
export async function watchDelegateBatch(deps: CollectDeps, job: DelegateWatchJob): Promise<WatchBatchOutcome> {
  const deadline = currentDeadline();
  const deferred: string[] = [];
  let unchanged = 0;
  const results = await mapConcurrent(job.accounts, WATCH_CONCURRENCY, async (entry): Promise<CollectOutcome | null> => {
    if (deadline !== undefined && Date.now() >= deadline) {
      deferred.push(entry.address);
      return null;
    }
    const outcome = await watchOne(deps, entry, job.dueAt);
    if (outcome === 'unchanged') {
      unchanged++;
      return { kind: 'delegates-checked', address: entry.address, events: 0, chainRequests: 1 };
    }
    return outcome;
  });
  const outcomes = results.filter((o) => o !== null);
  deps.counters.count('DelegateChecks', outcomes.filter((o) => o.kind === 'delegates-checked').length);
  if (deferred.length > 0) {
    deps.counters.count('DelegateWatchDeferred', deferred.length);
    deps.log.warn('delegate watch: deadline reached, the rest wait for their next slot', { deferred: deferred.length, checked: outcomes.length });
  }
  return { outcomes, unchanged, deferred };
}

/**
 * One account of the watch: the chain's list, decided twice. Unchanged since its mark with no notice
 * due: done. Otherwise the full check against the stored views (`watchDelegates`): notices queued
 * (stable ids), the views and known keys written, then the mark that lets the next checks skip all
 * of this while nothing changes (a crash before the mark only repeats the check). `sightedAt` is
 * the check's scheduled time (its job's `dueAt`), the occasion of any unknown-key decision it asks for.
 */
async function watchOne(deps: CollectDeps, entry: WatchEntry, sightedAt: number): Promise<CollectOutcome | 'unchanged'> {
  let current: Delegate[];
  try {
    current = await deps.chain.getDelegateTraders(entry.address);
  } catch (error) {
    if (!(error instanceof ChainError)) throw error;
    deps.counters.count('DelegateWatchErrors');
    deps.log.warn('delegate watch failed', { account: entry.address, error: error.name, reason: error.shortMessage });
    return { kind: 'delegates-failed', address: entry.address, reason: error.shortMessage };
  }
  if (unchangedSinceMark(entry.mark, current, deps.now())) return 'unchanged';
  const [account, previous] = await Promise.all([deps.repos.accounts.get(entry.address), deps.repos.snapshots.latest(entry.address)]);
  if (!account) return { kind: 'not-tracked', address: entry.address };
  const delegates = await watchDelegates({ ...deps.repos, revoke: deps.revoke }, account, current, {
    now: deps.now(),
    firstObservation: previous === null,
    sightedAt,
  });
  await sendAll(
    deps.events,
    delegates.events.map((body) => ({ id: body.eventId, body })),
  );
  await delegates.commit();
  await deps.repos.accounts.setDelegateMark(account.address, delegates.mark);
  // A key just asked to be revoked shows on the desk's overview now, not at the account's next curve poll.
  if (delegates.unknownKeyDecision !== null) await deps.recordDeskSummary?.(account, deps.now());
  if (delegates.events.length > 0) deps.counters.count('AlertEvents', delegates.events.length);
  return { kind: 'delegates-checked', address: account.address, events: delegates.events.length, chainRequests: 1 };
}
