import { emailEntryBase, type DeliveryHistoryEntry } from '../../domain/deliveryHistoryEntry';
import { withoutUrls } from '../../shared/withoutUrls';

/** How one recipient's email ended (`RecipientOutcome` of the mail sender, as far as the history needs it). */
export type MailOutcome = { readonly kind: 'sent' | 'duplicate' | 'in-progress' } | { readonly kind: 'failed' | 'retryable'; readonly reason: string };

/** SES error names, in plain words. */
const SES_WORDS: Readonly<Record<string, string>> = {
  MessageRejected: 'SES rejected the message',
  MailFromDomainNotVerified: "the sender's domain is not verified in SES",
  AccountSendingPausedException: 'sending is paused on the SES account',
  ConfigurationSetDoesNotExist: "SES's configuration set is missing",
  Throttling: 'SES asked to slow down',
  NoRecipients: 'no recipient',
};

/** A mail failure's reason in plain words, without a URL, short enough for a table. */
export function plainMailReason(reason: string): string {
  if (reason.startsWith('render:')) return 'the email could not be built';
  const name = /^[A-Za-z]+/.exec(reason)?.[0] ?? '';
  const words = SES_WORDS[name];
  const text = words === undefined ? withoutUrls(reason) : `${words} (${name})`;
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/**
 * The account's delivery-history entry of one recipient's email and its outcome: sent (`reconciled`
 * with its `lateNote` when it is the late send of a missed report), failed for good (and why), or to
 * be tried again (and why); `null` when there is nothing new to tell (a
 * duplicate, or another attempt holds it).
 */
export function mailDeliveryEntry(
  email: { readonly eventId: string; readonly kind: string; readonly recipient: string; readonly lateNote?: string | undefined },
  outcome: MailOutcome,
  at: number,
): DeliveryHistoryEntry | null {
  const base = emailEntryBase({ eventId: email.eventId, kind: email.kind, to: email.recipient }, at);
  switch (outcome.kind) {
    case 'sent':
      return email.lateNote === undefined ? { ...base, outcome: 'sent', reason: null } : { ...base, outcome: 'reconciled', reason: email.lateNote };
    case 'failed':
      return { ...base, outcome: 'failed', reason: plainMailReason(outcome.reason) };
    case 'retryable':
      return { ...base, outcome: 'retrying', reason: plainMailReason(outcome.reason) };
    case 'duplicate':
    case 'in-progress':
      return null;
  }
}
