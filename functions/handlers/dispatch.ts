import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { someRepositoriesFrom, sqsQueueFrom } from '../runtime/factories';
import { AccountScheduleRepository } from '../store/accountScheduleRepository';
import { AccountsRepository } from '../store/accountsRepository';
import { handlerBasics } from '../runtime/handlerBasics';
import { lazyHandler } from '../runtime/lazyHandler';
import { dispatchDue, type DispatchDeps } from '../services/collect/dispatchDue';
import { withDeadline } from '../shared/deadline';
import { deadlineOf } from '../runtime/consumer/sqsConsumer';
import { backfillBudgetFrom } from '../services/collect/backfillBudget';
import type { Observability } from '../shared/observability';

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

/** Builds the handler's dependencies from the environment (once per cold start). */
export function dispatchDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): DispatchHandlerDeps {
  const { settings, ...basics } = handlerBasics('dispatch', env);
  return {
    ...someRepositoriesFrom(settings, { accounts: AccountsRepository, schedule: AccountScheduleRepository }),
    collectQueue: sqsQueueFrom(settings, 'COLLECT_QUEUE_URL'),
    log: basics.log,
    addContext: basics.addContext,
    counters: basics.counters,
    flush: basics.flush,
    now: basics.now,
    limitPerShard: settings.DISPATCH_LIMIT_PER_SHARD,
    deadlineMarginMs: basics.deadlineMarginMs,
    backfillBudget: backfillBudgetFrom(settings),
  };
}

/** AWS entry point. */
export const handler = lazyHandler(async () => createDispatchHandler(dispatchDepsFromEnv()));
