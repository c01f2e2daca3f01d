import { nextDueAt } from '../../domain/schedule';
import type { MessageQueue } from '../../queue/messageQueue';
import { sendAll } from '../../queue/sendAll';
import type { AccountRecord } from '../../store/accountItem';
import type { AccountsRepository } from '../../store/accountsRepository';
import { currentDeadline } from '../../shared/deadline';
import type { Log } from '../../shared/observability';
import { mapConcurrent } from '../../store/concurrency';
import type { CollectJob } from '../../messages/collectJob';

const CLAIM_CONCURRENCY = 16;

export interface DispatchDeps {
  readonly accounts: AccountsRepository;
  readonly collectQueue: MessageQueue<CollectJob>;
  readonly log: Log;
  readonly now: () => number;
  /** Most accounts taken from each schedule shard per run (the rest wait for the next minute). */
  readonly limitPerShard: number;
}

/** Which accounts to dispatch: those due (the schedule), all of them, or one. */
export type DispatchSelection = { kind: 'due' } | { kind: 'all' } | { kind: 'account'; address: string };

export interface DispatchOutcome {
  readonly dispatched: CollectJob[];
  /** Accounts another dispatcher moved on meanwhile (their job may be queued twice; collect deduplicates). */
  readonly lost: string[];
  /** Accounts queued but not moved on because the invocation's deadline came (queued again next run; collect deduplicates). */
  readonly unclaimed: number;
}

/**
 * Finds the accounts to poll with an indexed query (never a scan), queues one collect job each,
 * then moves each account's `nextDueAt` to its next interval boundary with a conditional write.
 * Queuing first means a failure never loses a poll; the worst case, a job queued twice, is
 * harmless because collect recognises a poll by `(address, dueAt)`.
 */
export async function dispatchDue(deps: DispatchDeps, selection: DispatchSelection = { kind: 'due' }): Promise<DispatchOutcome> {
  const now = deps.now();
  const accounts = await select(deps, selection, now);
  const jobs = accounts.map((account) => ({
    address: account.address,
    dueAt: selection.kind === 'due' ? account.nextDueAt : now,
  }));
  await sendAll(
    deps.collectQueue,
    jobs.map((job) => ({ id: `${job.address}-${job.dueAt}`, body: job })),
  );
  const lost: string[] = [];
  const deadline = currentDeadline();
  let unclaimed = 0;
  await mapConcurrent(accounts, CLAIM_CONCURRENCY, async (account) => {
    if (deadline !== undefined && Date.now() >= deadline) {
      unclaimed++;
      return;
    }
    const next = nextDueAt(Math.max(account.nextDueAt, now), account.interval);
    const claim = await deps.accounts.claimDue(account.address, account.nextDueAt, next);
    if (claim.kind === 'lost') lost.push(account.address);
  });
  if (jobs.length > 0) deps.log.info('dispatched', { accounts: jobs.length, lost: lost.length, unclaimed });
  return { dispatched: jobs, lost, unclaimed };
}

async function select(deps: DispatchDeps, selection: DispatchSelection, now: number): Promise<AccountRecord[]> {
  switch (selection.kind) {
    case 'due':
      return deps.accounts.queryDue(now, deps.limitPerShard);
    case 'all':
      return deps.accounts.list();
    case 'account': {
      const account = await deps.accounts.get(selection.address);
      return account ? [account] : [];
    }
  }
}
