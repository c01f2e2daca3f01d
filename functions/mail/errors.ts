import { SentinelError } from '../shared/sentinelError';

/** An email could not be rendered or assembled: bad view data, an unknown time zone, a missing template. */
export class EmailRenderError extends SentinelError {
  override readonly name = 'EmailRenderError';
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
  }
}

/**
 * Sending failed. `retryable` is true for throttling, 5xx and network failures (send again with
 * backoff) and false for permanent refusals such as `MessageRejected`. The message never contains
 * addresses or links; `detail` is the provider's message with email addresses redacted.
 */
export class EmailSendError extends SentinelError {
  override readonly name = 'EmailSendError';
  constructor(
    readonly code: string,
    retryable: boolean,
    readonly detail: string | null,
    options: { cause?: unknown } = {},
  ) {
    super(`email send failed: ${code} (${retryable ? 'retryable' : 'permanent'})`, { cause: options.cause, retryable });
  }
}
