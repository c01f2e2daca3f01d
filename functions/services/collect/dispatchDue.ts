import { CADENCES, latestSlot, phaseOf, slotMinuteAt, slotRanges, slotTime } from '../../domain/schedule';
import type { MessageQueue } from '../../queue/messageQueue';
import { sendAll } from '../../queue/sendAll';
import type { TrackedAccount } from '../../domain/account';
import type { AccountScheduleRepository } from '../../store/accountScheduleRepository';
import type { AccountsRepository } from '../../store/accountsRepository';
import type { Log, Counters } from '../../shared/observability';
import { chunk, mapConcurrent } from '../../shared/concurrency';
import type { CollectJob, CollectMessage, DelegateWatchJob, WatchEntry } from '../../messages/collectJob';
import { backfillRequests, type BackfillBudget } from './backfillBudget';

const CLAIM_CONCURRENCY = 16;

/**
 * Accounts per delegate-watch job by default: 100 chain requests take ~12 s at one collect
 * instance's 8.5 requests/s (the stage defaults), well inside collect's 120 s timeout.
 */
export const DEFAULT_WATCH_BATCH = 100;

/** A dispatcher that has not run for longer than this catches up only this far (one poll per account covers the gap). */
export const MAX_CATCH_UP_MINUTES = 1_440;

/** Default grace before a regular poll counts as overdue (`OverdueAccounts`). */
export const DEFAULT_OVERDUE_GRACE_MS = 5 * 60_000;

/**
 * Default grace before a one-off poll (a first poll, a re-fetch, a long gap's rest) counts as
 * overdue. One-off polls wait for the backfill share by design, at least one per run, so an import
 * of a few hundred accounts is not a fault; an hour of waiting is (the share is too small for the
 * import, or one-off polls are not being taken).
 */
export const DEFAULT_ONE_OFF_OVERDUE_GRACE_MS = 60 * 60_000;

export interface DispatchDeps {
  readonly accounts: Pick<AccountsRepository, 'list' | 'get'>;
  readonly schedule: AccountScheduleRepository;
  readonly collectQueue: MessageQueue<CollectMessage>;
  readonly log: Log;
  readonly now: () => number;
  /** Most pending one-off polls read from each shard per run. */
  readonly limitPerShard: number;
  /** `OverdueAccounts` goes here on every scheduled run. */
  readonly counters?: Counters;
  /**
   * The share of the chain budget one run may give to one-off polls (first polls: backfills),
   * queued after every regular poll that is due; the rest wait for the next run. Default: no limit.
   */
  readonly backfillBudget?: BackfillBudget;
  /** How late a regular poll may be before it counts as overdue; default 5 minutes. */
  readonly overdueGraceMs?: number;
  /** How long a one-off poll may wait before it counts as overdue; default an hour (`DEFAULT_ONE_OFF_OVERDUE_GRACE_MS`). */
  readonly oneOffOverdueGraceMs?: number;
  /** Most accounts per delegate-watch job; default `DEFAULT_WATCH_BATCH`. */
  readonly watchBatchSize?: number;
}

/** Which accounts to dispatch: those due (the schedule), all of them, or one. */
export type DispatchSelection = { kind: 'due' } | { kind: 'all' } | { kind: 'account'; address: string };

export interface DispatchOutcome {
  /** The polls queued (one job each). */
  readonly dispatched: CollectJob[];
  /** Accounts whose delegate watch was queued, in delegate-watch jobs of up to `watchBatchSize`. */
  readonly watched: WatchEntry[];
  /** Pending polls another dispatcher claimed meanwhile (their job may be queued twice; collect deduplicates). */
  readonly lost: string[];
  /** Accounts whose poll is overdue by more than its grace period (scheduled runs only). */
  readonly overdue: number;
  /** One-off polls read and left for a later run (the backfill share was spent). */
  readonly waiting: number;
}

/**
 * Queues the polls that are due. Regular polls need no write per poll: an account's slots are
 * fixed by its interval and phase (`domain/schedule`), and the dispatcher finds the accounts with
 * a slot in the minutes since its last run with a few queries of the `bySlot` index, then moves
 * its own cursor (one conditional write per run, not per account). One-off polls (an account's
 * first poll, a re-fetch after an interval change) are pending in the sparse `byNextDue` index;
 * they are queued after the regular polls, at most `backfillsPerRun`, and claimed with a
 * conditional write. Jobs are queued before anything is written, so a crash never loses a poll;
 * a job queued twice is harmless because collect recognises a poll by `(address, dueAt)`.
 *
 * Accounts due only for their delegate watch go into `delegate-watch` jobs of up to
 * `watchBatchSize` accounts, each with the mark the index holds for it (see `watchDelegateBatch`).
 *
 * `all` and `account` are extra polls now (`sentinel collect --all`): they write no schedule, so
 * the next regular poll stays where it was.
 */
export async function dispatchDue(deps: DispatchDeps, selection: DispatchSelection = { kind: 'due' }): Promise<DispatchOutcome> {
  const now = deps.now();
  if (selection.kind !== 'due') {
    const accounts = selection.kind === 'all' ? await deps.accounts.list() : [await deps.accounts.get(selection.address)].filter((a) => a !== null);
    const jobs = accounts.map((account): CollectJob => ({ address: account.address, dueAt: now }));
    await send(deps, jobs);
    return { dispatched: jobs, watched: [], lost: [], overdue: 0, waiting: 0 };
  }

  const cursor = await deps.schedule.dispatchCursor();
  const upTo = slotMinuteAt(now);
  const after = cursor === null ? upTo - 1 : Math.max(cursor, upTo - MAX_CATCH_UP_MINUTES);
  const [{ polls: scheduled, watch }, pending] = await Promise.all([
    regularJobs(deps.schedule, after, upTo),
    deps.schedule.queryPending(now, deps.limitPerShard),
  ]);
  const taken = deps.backfillBudget ? withinBudget(pending, deps.backfillBudget) : pending;

  const byAddress = new Map<string, CollectJob>(scheduled.map((job) => [job.address, job]));
  const backfills: CollectJob[] = [];
  for (const account of taken) {
    const regular = byAddress.get(account.address);
    const job: CollectJob = { address: account.address, dueAt: Math.max(account.nextDueAt, regular?.dueAt ?? 0) };
    if (regular) byAddress.delete(account.address);
    backfills.push(job);
  }
  const jobs = [...byAddress.values(), ...backfills];
  const watchJobs = chunk(watch, Math.max(1, deps.watchBatchSize ?? DEFAULT_WATCH_BATCH)).map((accounts): DelegateWatchJob => ({
    kind: 'delegate-watch',
    dueAt: slotTime(upTo),
    accounts,
  }));
  await send(deps, [...byAddress.values(), ...watchJobs, ...backfills]);

  const lost: string[] = [];
  await mapConcurrent(taken, CLAIM_CONCURRENCY, async (account) => {
    if ((await deps.schedule.claimPending(account, account.nextDueAt)).kind === 'lost') lost.push(account.address);
  });
  if (cursor === null || upTo > cursor) {
    const moved = await deps.schedule.advanceDispatchCursor(cursor, upTo);
    if (moved.kind === 'lost') deps.log.info('another dispatcher moved the cursor first', { minute: upTo });
  }

  const grace = deps.overdueGraceMs ?? DEFAULT_OVERDUE_GRACE_MS;
  const oneOffGrace = deps.oneOffOverdueGraceMs ?? DEFAULT_ONE_OFF_OVERDUE_GRACE_MS;
  const overdueAddresses = new Set([
    ...[...byAddress.values()].filter((job) => now - job.dueAt > grace).map((job) => job.address),
    ...pending.filter((a) => now - a.nextDueAt > oneOffGrace).map((a) => a.address),
  ]);
  const overdue = overdueAddresses.size;
  const waiting = pending.length - taken.length;
  deps.counters?.count('OverdueAccounts', overdue);
  deps.counters?.count('OneOffPollsWaiting', waiting);
  if (jobs.length > 0 || watch.length > 0) {
    deps.log.info('dispatched', {
      accounts: jobs.length,
      backfills: backfills.length,
      watched: watch.length,
      waiting,
      lost: lost.length,
      overdue,
    });
  }
  return { dispatched: jobs, watched: watch, lost, overdue, waiting };
}

/**
 * What the schedule index holds for the epoch minutes `(after, upTo]`: one poll per account due
 * (its latest slot), and the accounts due only for their delegate watch, with their marks.
 */
async function regularJobs(schedule: AccountScheduleRepository, after: number, upTo: number): Promise<{ polls: CollectJob[]; watch: WatchEntry[] }> {
  const perCadence = await Promise.all(
    CADENCES.map(async (cadence) => {
      const ranges = slotRanges(cadence, after, upTo);
      return ranges === 'all' || ranges.length > 0 ? schedule.querySlots(cadence, ranges) : [];
    }),
  );
  const polls: CollectJob[] = [];
  const watch: WatchEntry[] = [];
  for (const entry of perCadence.flat()) {
    // An account waiting for its first poll (or a re-fetch) is the pending path's, within its budget.
    if (entry.nextDueAt !== null) continue;
    const job = regularJob(entry, after, upTo);
    if (job?.scope === 'delegates') watch.push({ address: job.address, mark: entry.delegateMark });
    else if (job) polls.push(job);
  }
  return { polls, watch };
}

/**
 * What is due for one account in `(after, upTo]`: a curve poll (which checks the delegates too, so
 * a watch slower than the interval never delays detection), a delegate check alone, or nothing.
 */
export function regularJob(account: Pick<TrackedAccount, 'address' | 'interval' | 'delegateWatch'>, after: number, upTo: number): CollectJob | null {
  const phase = phaseOf(account.address);
  const curves = latestSlot(phase, account.interval, after, upTo);
  if (curves !== null) return { address: account.address, dueAt: slotTime(curves) };
  const delegates = account.delegateWatch === null ? null : latestSlot(phase, account.delegateWatch, after, upTo);
  return delegates === null ? null : { address: account.address, dueAt: slotTime(delegates), scope: 'delegates' };
}

/** The earliest pending accounts whose backfills fit in the budget's requests (at least one). */
export function withinBudget<T extends Pick<TrackedAccount, 'interval'>>(pending: readonly T[], budget: BackfillBudget): T[] {
  const taken: T[] = [];
  let requests = 0;
  for (const account of pending) {
    const cost = backfillRequests(account.interval, budget);
    if (taken.length > 0 && requests + cost > budget.requestsPerRun) break;
    taken.push(account);
    requests += cost;
  }
  return taken;
}

async function send(deps: DispatchDeps, jobs: readonly CollectMessage[]): Promise<void> {
  await sendAll(
    deps.collectQueue,
    jobs.map((job, i) => ({ id: 'kind' in job ? `watch-${job.dueAt}-${i}` : `${job.address}-${job.dueAt}`, body: job })),
  );
}
