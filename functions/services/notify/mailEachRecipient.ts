import type { Counters } from '../../shared/observability';
import { RetryLaterError } from '../../shared/retryLaterError';
import type { MailAudience } from '../../notices/audience';
import type { AccountHistoryRepository } from '../../store/accountHistoryRepository';
import { recordLeftOut } from '../delivery/leftOutEntry';
import { deliverToRecipient, tallyOutcomes, type ComposedEmail, type MailDeliveryDeps, type RecipientOutcome } from '../delivery/mailDelivery';

/** How mailing one notify message (or onboarding check) ended. */
export type NotificationOutcome =
  /** `messages` emails went out now; `failed` recipients were refused for good. */
  | { kind: 'sent'; messages: number; failed: number }
  /** Every recipient already had it (a redelivered message or a rerun). */
  | { kind: 'duplicate' }
  | { kind: 'skipped'; reason: string }
  /** Refused for good (e.g. SES rejected it); not retried. */
  | { kind: 'failed'; reason: string };

/** One recipient's copy of a notice: who gets it, and the account whose deliveries and history record it. */
export interface RecipientCopy {
  readonly recipient: string;
  readonly account: string;
}

/** What every copy of one notice shares: its event id (with the recipient, the delivery id), its email kind, and the `Date` header's time. */
export interface NoticeMail {
  readonly eventId: string;
  readonly kind: string;
  readonly sentAt: number;
}

/**
 * Mails each copy of one notice, one recipient after the other, each at most once under
 * `<eventId>#<recipient>` (`deliverToRecipient`: `compose` runs only for a copy not sent before),
 * and says how it ended (`notificationOutcome`: throws `RetryLaterError` after serving the others
 * when a copy is to retry).
 */
export async function mailEachRecipient<C extends RecipientCopy>(
  deps: MailDeliveryDeps & { readonly counters: Counters },
  mail: NoticeMail,
  copies: readonly C[],
  compose: (copy: C) => Promise<ComposedEmail> | ComposedEmail,
): Promise<NotificationOutcome> {
  const outcomes: RecipientOutcome[] = [];
  for (const copy of copies) {
    outcomes.push(await deliverToRecipient(deps, { ...mail, account: copy.account, recipient: copy.recipient, compose: () => compose(copy) }));
  }
  return notificationOutcome(deps.counters, outcomes);
}

/**
 * Mails one account's notice to its audience (`mailAudience`): those left out are recorded in the
 * account's history at `at`, the event's own time (a redelivered message lands on the same
 * entries), then each recipient left is mailed (`mailEachRecipient`); `skipped` when no one is.
 */
export async function mailAccountAudience(
  deps: MailDeliveryDeps & { readonly counters: Counters; readonly repos: { readonly history: Pick<AccountHistoryRepository, 'recordDelivery'> } },
  account: { readonly address: string; readonly timezone: string },
  audience: MailAudience,
  mail: NoticeMail & { readonly at: number },
  compose: (copy: RecipientCopy) => Promise<ComposedEmail> | ComposedEmail,
): Promise<NotificationOutcome> {
  const { at, ...shared } = mail;
  await recordLeftOut(deps.repos.history, account, audience.leftOut, { eventId: mail.eventId, kind: mail.kind, at });
  if (audience.kind === 'none') return { kind: 'skipped', reason: audience.reason };
  const copies = audience.recipients.map((recipient) => ({ recipient, account: account.address }));
  return mailEachRecipient(deps, shared, copies, compose);
}

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
