import type { Counters } from '../../shared/observability';
import { RetryLaterError } from '../../shared/retryLaterError';
import { tallyOutcomes, type RecipientOutcome } from '../delivery/mailDelivery';

/** How mailing one notify message (or onboarding check) ended. */
export type NotificationOutcome =
  /** `messages` emails went out now; `failed` recipients were refused for good. */
  | { kind: 'sent'; messages: number; failed: number }
  /** Every recipient already had it (a redelivered message or a rerun). */
  | { kind: 'duplicate' }
  | { kind: 'skipped'; reason: string }
  /** Refused for good (e.g. SES rejected it); not retried. */
  | { kind: 'failed'; reason: string };

/**
 * The outcome of a notice's recipients' deliveries, counted in `NotificationEmailsSent` and
 * `NotificationEmailsFailed`. Throws `RetryLaterError` when some recipient hit a passing failure
 * (or another worker holds its delivery): the queue redelivers the message and only the remaining
 * recipients are mailed.
 */
export function notificationOutcome(counters: Counters, outcomes: readonly RecipientOutcome[]): NotificationOutcome {
  const tally = tallyOutcomes(outcomes);
  if (tally.sent > 0) counters.count('NotificationEmailsSent', tally.sent);
  if (tally.failed.length > 0) counters.count('NotificationEmailsFailed', tally.failed.length);
  if (tally.retry.length > 0) {
    throw new RetryLaterError(
      `${tally.retry.length} of ${outcomes.length} recipient(s) to retry: ${[...new Set(tally.retry)].join('; ')}`,
      tally.retryAfterMs === undefined ? {} : { retryAfterMs: tally.retryAfterMs },
    );
  }
  if (tally.sent > 0) return { kind: 'sent', messages: tally.sent, failed: tally.failed.length };
  if (tally.failed.length > 0) return { kind: 'failed', reason: [...new Set(tally.failed)].join('; ') };
  return { kind: 'duplicate' };
}
