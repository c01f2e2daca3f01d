import { TokenBucket, type Sleep } from '../../shared/rateLimiter';
import type { MailSender } from '../../mail/send/sesSender';
import { backoff } from '../../shared/backoff';
import type { Counters } from '../../shared/observability';
import { GovernedSender } from './governedSender';
import { mailRateShares, type MailClass } from '../../mail/send/mailRate';

export interface MailGovernorOptions {
  /** Emails per second for the whole account (`MAIL_RATE`, or SES `MaxSendRate`). */
  readonly rate: number;
  /**
   * Instances that send at once with their own governor, each taking an equal part: the event
   * source's `maxConcurrency` of the function in AWS (`MAIL_RATE_WORKERS`), 1 for one process
   * locally (where every in-process worker shares it).
   */
  readonly workers?: number;
  /** Clock of the token buckets and backoff (simulated in the benchmark). */
  readonly now?: () => number;
  readonly sleep?: Sleep;
  readonly counters?: Counters;
}

/** Throttled sends: attempts in all, and the backoff between them (well inside the 2-minute delivery lease). */
export const THROTTLE_RETRY = { maxAttempts: 8, baseDelayMs: 250, maxDelayMs: 8_000 } as const;

/** Paces the emails of this process per class; see "The mail-rate governor" in docs/architecture.md. */
export interface MailGovernor {
  /** Emails per second this process may send, per class. */
  readonly rates: Readonly<Record<MailClass, number>>;
  /** `inner`, paced by the bucket of `mailClass` and retrying throttled sends. */
  sender(inner: MailSender, mailClass: MailClass): MailSender;
}

/**
 * One token bucket per class (burst 1, so no second is ever over), at the class's share of the
 * rate divided by the workers. Senders of one class in this process share its bucket.
 */
export function mailGovernor(options: MailGovernorOptions): MailGovernor {
  const workers = options.workers ?? 1;
  if (!(Number.isInteger(workers) && workers >= 1)) throw new RangeError(`workers must be a positive integer, got ${workers}`);
  const shares = mailRateShares(options.rate);
  const rates = { alert: shares.alert / workers, report: shares.report / workers };
  const clock = {
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
  };
  const buckets = {
    alert: new TokenBucket({ ratePerSecond: rates.alert, burst: 1, ...clock }),
    report: new TokenBucket({ ratePerSecond: rates.report, burst: 1, ...clock }),
  };
  const retry = backoff({ ...THROTTLE_RETRY, ...(options.sleep === undefined ? {} : { sleep: (ms: number) => options.sleep!(ms) }) });
  return {
    rates,
    sender: (inner, mailClass) => new GovernedSender(inner, buckets[mailClass], retry, options.counters),
  };
}
