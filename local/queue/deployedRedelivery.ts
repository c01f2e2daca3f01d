import type { WorkQueueSettings } from '../../functions/queue/workQueueSettings';
import type { QueueClock } from './inProcessQueue';
import type { QueueJournal } from './queueJournal';

/** What a local queue runs on: the simulated clock and the journal, when its caller has them. */
export interface LocalQueueRuntime {
  readonly clock?: QueueClock | undefined;
  readonly journal?: QueueJournal | undefined;
}

/**
 * An in-process queue's options that are the deployed queue's own: its receive limit and its
 * consumer's timeout (`settings`, the same the CDK queue is built from), with the clock and journal
 * the caller runs on. The visibility timeout stays the caller's: local retries come sooner.
 */
export function deployedRedelivery(
  settings: Pick<WorkQueueSettings, 'maxReceiveCount' | 'consumerTimeoutSeconds'>,
  runtime: LocalQueueRuntime = {},
): { maxReceiveCount: number; timeoutMs: number; clock?: QueueClock; journal?: QueueJournal } {
  return {
    maxReceiveCount: settings.maxReceiveCount,
    timeoutMs: settings.consumerTimeoutSeconds * 1_000,
    ...(runtime.clock ? { clock: runtime.clock } : {}),
    ...(runtime.journal ? { journal: runtime.journal } : {}),
  };
}
