import type { NotifyQueueEvent } from '../functions/messages/notifyMessage';
import type { WorkQueueSettings } from '../functions/queue/workQueueSettings';
import { consumerQueue } from '../functions/runtime/consumer/consumerQueue';
import { InProcessQueue, type QueueClock, type SqsLambdaHandler } from './queue/inProcessQueue';
import type { QueueJournal } from './queue/queueJournal';
import { deployedRedelivery } from './queue/deployedRedelivery';

/**
 * The local notify queue's redelivery: the deployed consumer timeout and receive limit, with the
 * local visibility timeout (default SQS's 30 s; `serve` retries sooner).
 */
export function localNotifyQueue(visibilityTimeoutMs = 30_000): WorkQueueSettings {
  const deployed = consumerQueue('notify');
  return { ...deployed, visibilityTimeoutSeconds: Math.max(1, Math.ceil(visibilityTimeoutMs / 1_000)) };
}

export interface LocalNotifyQueueOptions {
  /** The notify-queue consumer (the notify handler, or a test's recorder). */
  readonly consumer: SqsLambdaHandler;
  /** How long a failed message waits before redelivery; default 30 s (SQS's default). */
  readonly visibilityTimeoutMs?: number;
  readonly clock?: QueueClock;
  /** Keeps the queue's messages across restarts (`npm start`, `serve`); default memory only. */
  readonly journal?: QueueJournal;
}

/** The notify queue of one local process, consumed by `consumer` with the deployed receive limit and timeout. */
export function createLocalNotifyQueue(options: LocalNotifyQueueOptions): InProcessQueue<NotifyQueueEvent> {
  const settings = localNotifyQueue(options.visibilityTimeoutMs);
  return new InProcessQueue<NotifyQueueEvent>({
    name: 'sentinel-notify',
    consumer: options.consumer,
    visibilityTimeoutMs: options.visibilityTimeoutMs ?? 30_000,
    ...deployedRedelivery(settings, options),
  });
}
