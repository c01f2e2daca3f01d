import { HANDLER_CATALOG } from '../../config/handlerCatalog';
import { workQueueSettings, type WorkQueueSettings } from '../../queue/workQueueSettings';

/**
 * Receives before a decision unit is parked in the dead-letter queue: as the revocations queue's,
 * higher than the other queues', since the worker's reserved concurrency is 1 and a Lambda throttle
 * counts as a receive. A unit retried past the decision's age is refused by the signer, not parked.
 */
export const DECISION_MAX_RECEIVE_COUNT = 10;

/**
 * The protective-decision queue's redelivery (SQS FIFO grouped by account in AWS, the in-process
 * queue locally): one delegate per delivery, so the worker's timeout bounds one signing call.
 */
export const DECISION_QUEUE: WorkQueueSettings = workQueueSettings(HANDLER_CATALOG['decision-worker'].sizing.timeoutSeconds, DECISION_MAX_RECEIVE_COUNT);

/** Decision units per worker invocation: one, so an account's next delegate waits for the previous one's answer. */
export const DECISION_BATCH_SIZE = 1;
