import type { SQSRecord } from 'aws-lambda';
import type { WorkQueueSettings } from '../../queue/workQueueSettings';
import { RetryLaterError } from '../../shared/retryLaterError';

/** The longest visibility SQS accepts (`ChangeMessageVisibility`): 12 hours. */
export const MAX_VISIBILITY_SECONDS = 43_200;

/**
 * How long a message that failed for a passing reason on its `receiveCount`-th receive stays
 * hidden: the consumer's timeout, doubling per receive (2, 4, 8 min for a 2-minute consumer),
 * at most the queue's visibility timeout. So the retries end well inside `retryWindowMs`, which
 * stays the bound (a record the deadline left unstarted, or a crashed invocation, keeps the full
 * visibility timeout).
 */
export function retryDelaySeconds(settings: WorkQueueSettings, receiveCount: number): number {
  const retry = Math.max(0, Math.floor(receiveCount) - 1);
  return Math.min(settings.visibilityTimeoutSeconds, settings.consumerTimeoutSeconds * 2 ** Math.min(retry, 20));
}

/** The failed record's delay before its next receive: the error's own, else the queue's backoff; `undefined` leaves the visibility timeout. */
export function backoffSeconds(queue: WorkQueueSettings | undefined, record: SQSRecord, error: unknown): number | undefined {
  if (error instanceof RetryLaterError && error.retryAfterMs !== undefined) {
    return Math.min(MAX_VISIBILITY_SECONDS, Math.max(0, Math.ceil(error.retryAfterMs / 1_000)));
  }
  if (!queue) return undefined;
  const receiveCount = Number(record.attributes.ApproximateReceiveCount);
  return retryDelaySeconds(queue, Number.isFinite(receiveCount) && receiveCount >= 1 ? receiveCount : 1);
}
