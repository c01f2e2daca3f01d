import type { MailCategory } from '../domain/mailCategory';

/** Why one addressee gets no copy of a notice or report. */
export type LeftOutReason =
  /** The address is suppressed (a bounce, a complaint, an unsubscribe from before categories). */
  | { readonly kind: 'suppressed' }
  /** The recipient opted out of the notice's category. */
  | { readonly kind: 'opted-out'; readonly category: MailCategory }
  /** The recipient's own snooze of the account's drawdown alerts runs until `until` (epoch ms). */
  | { readonly kind: 'snoozed'; readonly until: number };

/** An addressee left out of a mailing, and why. */
export interface LeftOutRecipient {
  readonly email: string;
  readonly reason: LeftOutReason;
}
