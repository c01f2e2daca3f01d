import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { loadSettings } from '../config/settings';
import { repositoriesFrom, sqsQueueFrom } from '../runtime/factories';
import { lazyHandler } from '../runtime/lazyHandler';
import { dispatchDue, type DispatchDeps } from '../services/collect/dispatchDue';
import { createObservability } from '../shared/observability';

/** EventBridge Scheduler passes whatever input the schedule was given; ours sends none or `{}`. */
const scheduledEventSchema = z.looseObject({}).nullish();

/** Fired every minute: queues a collect job for each account whose poll is due. */
export function createDispatchHandler(deps: DispatchDeps) {
  return async (event: unknown, _context?: Context): Promise<{ dispatched: number; lost: number }> => {
    scheduledEventSchema.parse(event);
    const outcome = await dispatchDue(deps, { kind: 'due' });
    return { dispatched: outcome.dispatched.length, lost: outcome.lost.length };
  };
}

export const handler = lazyHandler(async () => {
  const settings = loadSettings(process.env);
  const { log } = createObservability('dispatch');
  return createDispatchHandler({
    accounts: repositoriesFrom(settings).accounts,
    collectQueue: sqsQueueFrom(settings, 'COLLECT_QUEUE_URL'),
    log,
    now: Date.now,
    limitPerShard: 1_000,
  });
});
