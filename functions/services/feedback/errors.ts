import { SentinelError } from '../../shared/sentinelError';

/** The operator could not be told about a bounced security recipient yet (throttled, in flight elsewhere); the event is retried. */
export class SecurityBounceNoticeError extends SentinelError {
  override readonly name = 'SecurityBounceNoticeError';
  constructor(shortMessage: string, options: { details?: string; cause?: unknown } = {}) {
    super(shortMessage, { ...options, retryable: true });
  }
}
