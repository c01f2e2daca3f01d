import type { RateLimiter } from '../../shared/rateLimiter';
import { EmailSendError } from '../../mail/errors';
import type { MailSender, RawEmail } from '../../mail/send/sesSender';
import { retryWithBackoff, type Backoff } from '../../shared/backoff';
import type { Counters } from '../../shared/observability';

/** SES error codes for "you are sending too fast". */
const THROTTLE_CODES = new Set(['Throttling', 'ThrottlingException', 'MaxSendingRateExceeded', 'TooManyRequestsException']);

/** Whether a send failed because SES throttled it (nothing was sent; sending again later is safe). */
export function isThrottled(error: unknown): boolean {
  return error instanceof EmailSendError && (THROTTLE_CODES.has(error.code) || /sending rate exceeded/i.test(error.detail ?? ''));
}

/**
 * A `MailSender` that waits for the mail-rate governor before every send and, when SES throttles
 * anyway, backs off (exponential, full jitter) and sends again after a new token, up to
 * `backoff.maxAttempts` attempts. A throttled send was not accepted by SES, so sending it again can
 * never deliver it twice; after the last attempt the throttling error goes to the caller, which
 * records the delivery as failed-retryable (the queue brings the message back).
 */
export class GovernedSender implements MailSender {
  constructor(
    private readonly inner: MailSender,
    private readonly limiter: RateLimiter,
    private readonly backoff: Backoff,
    private readonly counters?: Counters,
  ) {}

  async send(email: RawEmail): Promise<{ messageId: string }> {
    return retryWithBackoff(
      this.backoff,
      async () => {
        await this.limiter.take();
        return this.inner.send(email);
      },
      isThrottled,
      () => this.counters?.count('MailThrottled'),
    );
  }
}
