import { SentinelError } from '../../shared/sentinelError';

/**
 * Some recipients could not be mailed for a reason that passes (SES throttling or outage, or
 * another worker holding the delivery). Thrown by the notify service so that the queue
 * redelivers the message after its visibility timeout; recipients already served are skipped
 * on the next attempt. The message names counts and error codes, never addresses or links.
 */
export class RetryLaterError extends SentinelError {
  override readonly name = 'RetryLaterError';
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause, retryable: true });
  }
}
