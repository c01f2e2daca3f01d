import { SentinelError } from '../shared/sentinelError';

/** Sending to a queue failed as a whole (not just some entries). */
export class QueueError extends SentinelError {
  override readonly name = 'QueueError';
  constructor(
    readonly queue: string,
    message: string,
    options: { cause?: unknown; retryable?: boolean } = {},
  ) {
    super(queue, { details: message, ...options });
  }
}
