import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { settingsFor } from '../config/settings';
import { someRepositoriesFrom, sqsQueueFrom } from '../runtime/factories';
import { AccountScheduleRepository } from '../store/accountScheduleRepository';
import { AccountsRepository } from '../store/accountsRepository';
import { lazyHandler } from '../runtime/lazyHandler';
import { dispatchDue, type DispatchDeps } from '../services/collect/dispatchDue';
import { deadlineOf, withDeadline } from '../shared/deadline';
import { backfillBudgetFrom } from '../services/collect/backfillBudget';
import { createObservability, type Observability } from '../shared/observability';

/** EventBridge Scheduler passes whatever input the schedule was given; ours sends none or `{}`. */
const scheduledEventSchema = z.looseObject({}).nullish();

/** What dispatch needs: the dispatch service's ports, and how much of its time it keeps free. */
export interface DispatchHandlerDeps extends DispatchDeps {
  readonly addContext?: Observability['addContext'];
  readonly flush?: Observability['flush'];
  /** Time kept free before the Lambda's timeout (which equals the schedule period); default 5 s. */
  readonly deadlineMarginMs?: number;
}

/**
 * Fired every minute: queues a collect job for each account whose poll is due, and counts the
 * overdue ones (`OverdueAccounts`). Work is bounded by the invocation's remaining time: slots
 * not dispatched by then are queued by the next run.
 */
export function createDispatchHandler(deps: DispatchHandlerDeps) {
  return async (event: unknown, context?: Context): Promise<{ dispatched: number; lost: number; overdue: number }> => {
    scheduledEventSchema.parse(event);
    if (context) deps.addContext?.(context);
    try {
      const deadline = deadlineOf(context, deps.deadlineMarginMs ?? 5_000, Date.now());
      const outcome = await withDeadline(deadline, () => dispatchDue(deps, { kind: 'due' }));
      return { dispatched: outcome.dispatched.length, lost: outcome.lost.length, overdue: outcome.overdue };
    } finally {
      deps.flush?.();
    }
  };
}

export const handler = lazyHandler(async () => {
  const settings = settingsFor('dispatch');
  const { log, counters, flush, addContext } = createObservability('dispatch');
  return createDispatchHandler({
    ...someRepositoriesFrom(settings, { accounts: AccountsRepository, schedule: AccountScheduleRepository }),
    collectQueue: sqsQueueFrom(settings, 'COLLECT_QUEUE_URL'),
    log,
    addContext,
    counters,
    flush,
    now: Date.now,
    limitPerShard: settings.DISPATCH_LIMIT_PER_SHARD,
    deadlineMarginMs: settings.DEADLINE_MARGIN_MS,
    backfillBudget: backfillBudgetFrom(settings),
  });
});
