import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { loadSettings } from '../config/settings';
import { repositoriesFrom, sqsQueueFrom } from '../runtime/factories';
import { lazyHandler } from '../runtime/lazyHandler';
import { dispatchDue, type DispatchDeps } from '../services/collect/dispatchDue';
import { backfillBudgetFrom } from '../services/collect/backfillBudget';
import { createObservability, type Observability } from '../shared/observability';

/** EventBridge Scheduler passes whatever input the schedule was given; ours sends none or `{}`. */
const scheduledEventSchema = z.looseObject({}).nullish();

/** Fired every minute: queues a collect job for each account whose poll is due. */
export function createDispatchHandler(deps: DispatchDeps & { readonly flush?: Observability['flush'] }) {
  return async (event: unknown, _context?: Context): Promise<{ dispatched: number; lost: number; overdue: number }> => {
    scheduledEventSchema.parse(event);
    try {
      const outcome = await dispatchDue(deps, { kind: 'due' });
      return { dispatched: outcome.dispatched.length, lost: outcome.lost.length, overdue: outcome.overdue };
    } finally {
      deps.flush?.();
    }
  };
}

export const handler = lazyHandler(async () => {
  const settings = loadSettings(process.env);
  const { log, counters, flush } = createObservability('dispatch');
  return createDispatchHandler({
    accounts: repositoriesFrom(settings).accounts,
    collectQueue: sqsQueueFrom(settings, 'COLLECT_QUEUE_URL'),
    log,
    counters,
    flush,
    now: Date.now,
    limitPerShard: 1_000,
    backfillBudget: backfillBudgetFrom(settings),
  });
});
