import { SentinelError } from '../shared/sentinelError';

/** A queue call failed as a whole (a send, not just some of its entries; a visibility change). */
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
