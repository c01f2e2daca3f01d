import { ConfigError } from '../../config/settings';
import { QueueError } from '../../queue/errors';
import { SentinelError } from '../../shared/sentinelError';
import { StoreError } from '../../store/errors';

/**
 * True when a message that failed with `error` can never succeed, however often it is delivered:
 * a project error marked not retryable (the chain refused the account or the request, a request
 * that is invalid, a page that cannot be rendered...). Not poison: anything retryable, anything
 * unknown, and failures of the deployment rather than of the message (store, queue and
 * configuration errors, e.g. a missing table or a denied permission), which an operator fixes
 * and then redrives from the dead-letter queue.
 */
export function isPoisonFailure(error: unknown): boolean {
  if (!(error instanceof SentinelError) || error.retryable) return false;
  return !(error instanceof StoreError || error instanceof QueueError || error instanceof ConfigError);
}
