import { HANDLER_CATALOG } from '../../config/handlerCatalog';
import { workQueueSettings, type WorkQueueSettings } from '../../queue/workQueueSettings';

/**
 * Receives before a revocation job is parked in the dead-letter queue. Higher than the other
 * queues': the worker's reserved concurrency is small on purpose (it must leave the signer room for
 * clicks), and an invocation Lambda throttles still counts as a receive.
 */
export const REVOCATION_MAX_RECEIVE_COUNT = 10;

/**
 * The revocations queue's redelivery (SQS FIFO grouped by account in AWS; the in-process queue
 * locally): one delegate per delivery, so its worker's timeout bounds one signing call. A job whose
 * storage write failed comes back after six times that timeout.
 */
export const REVOCATION_QUEUE: WorkQueueSettings = workQueueSettings(HANDLER_CATALOG['revoke-all-worker'].sizing.timeoutSeconds, REVOCATION_MAX_RECEIVE_COUNT);

/** Revocation jobs per worker invocation: one, so a group's next job waits for the previous one's answer. */
export const REVOCATION_BATCH_SIZE = 1;
