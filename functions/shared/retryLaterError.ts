import { SentinelError } from './sentinelError';

/**
 * The one "try this message again later" error: something passes (SES throttling or outage,
 * another worker holding a delivery, a job that arrived before its due time). The SQS edge
 * (`sqsConsumer`) hides the message for `retryAfterMs` when given, else for its backoff delay,
 * and SQS redelivers it. The message names counts and error codes, never addresses or links.
 */
export class RetryLaterError extends SentinelError {
  override readonly name = 'RetryLaterError';
  /** When the message may succeed at the earliest (e.g. a report's due time), if known. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: { cause?: unknown; retryAfterMs?: number } = {}) {
    super(message, { cause: options.cause, retryable: true });
    this.retryAfterMs = options.retryAfterMs;
  }
}
