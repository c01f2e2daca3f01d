import { unchangedSinceMark } from '../../domain/delegateMark';
import type { DelegateWatchJob, WatchEntry } from '../../messages/collectJob';
import { currentDeadline } from '../../shared/deadline';
import { mapConcurrent } from '../../shared/concurrency';
import type { CollectDeps, CollectOutcome } from './collectDeps';
import { fullDelegateCheck } from './fullDelegateCheck';
import { readDelegates } from './readDelegates';

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
 * An account whose list matches the mark the dispatcher read from the schedule index, with no
 * notice due since (`domain/delegateMark`), is done: nothing is read or written. Otherwise the
 * full check runs, as a curve poll's would: the stored views are compared, notices queued, changed
 * views written, then the new mark. Accounts not started by the invocation's deadline are left to
 * their next watch slot; a chain failure is counted and logged (the curve polls own the health).
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

async function watchOne(deps: CollectDeps, entry: WatchEntry, dueAt: number): Promise<CollectOutcome | 'unchanged'> {
  const read = await readDelegates(deps, entry.address);
  if (read.kind !== 'read') return read;
  const current = read.delegates;
  if (unchangedSinceMark(entry.mark, current, deps.now())) return 'unchanged';
  const [account, previous] = await Promise.all([deps.repos.accounts.get(entry.address), deps.repos.snapshots.latest(entry.address)]);
  if (!account) return { kind: 'not-tracked', address: entry.address };
  return fullDelegateCheck(deps, account, current, previous === null, dueAt);
}
