/** Visibility timeout / consumer timeout: AWS's guidance for SQS event sources. */
export const VISIBILITY_FACTOR = 6;

/** Receives before a message is parked in its dead-letter queue (SQS `maxReceiveCount`). */
export const MAX_RECEIVE_COUNT = 5;

/** How a work queue redelivers: the one definition the CDK queues and the local in-process queues both read. */
export interface WorkQueueSettings {
  /** The consumer's timeout, seconds. */
  readonly consumerTimeoutSeconds: number;
  /** How long a received message stays hidden before it is delivered again: `VISIBILITY_FACTOR` x the consumer's timeout. */
  readonly visibilityTimeoutSeconds: number;
  readonly maxReceiveCount: number;
}

/** The settings of a queue whose consumer times out after `consumerTimeoutSeconds`. */
export function workQueueSettings(consumerTimeoutSeconds: number, maxReceiveCount = MAX_RECEIVE_COUNT): WorkQueueSettings {
  return { consumerTimeoutSeconds, visibilityTimeoutSeconds: consumerTimeoutSeconds * VISIBILITY_FACTOR, maxReceiveCount };
}

/** How long after its first receive SQS gives a failing message up: one visibility timeout per receive. */
export function retryWindowMs(settings: WorkQueueSettings): number {
  return settings.visibilityTimeoutSeconds * settings.maxReceiveCount * 1_000;
}
