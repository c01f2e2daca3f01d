import * as z from 'zod';

/**
 * One delivery about an account (the desk's account page): what was sent (`what`: the email or
 * notice kind), to whom and where (an email address, or a chat channel by name and never its URL
 * or token), and how it ended, with the reason in plain words where it did not go out.
 */
export const deliveryHistoryEntrySchema = z.object({
  /** `email`, or `channel` (then `to` is the channel's name). */
  via: z.enum(['email', 'channel']),
  to: z.string().min(1).max(320),
  what: z.string().min(1).max(100),
  /**
   * `retrying`: a passing failure, tried again; `held`: waiting for the channel's next slot or summary;
   * `suppressed`: the recipient was left out (why in `reason`); `missed`: a scheduled report recorded
   * missed by reconciliation; `reconciled`: a missed report sent late (`report --retry-missed`).
   */
  outcome: z.enum(['sent', 'failed', 'suppressed', 'retrying', 'held', 'missed', 'reconciled']),
  reason: z.string().max(300).nullable(),
  at: z.number().int().nonnegative(),
  /** The event or report id the delivery belongs to (its delivery record's). */
  eventId: z.string().min(1).max(400),
});
export type DeliveryHistoryEntry = z.output<typeof deliveryHistoryEntrySchema>;

/** The part of an email's entry every outcome shares: the recipient as stored (trimmed, lower case), the email kind, when, and the event id cut to the schema's 400. */
export function emailEntryBase(email: { readonly eventId: string; readonly kind: string; readonly to: string }, at: number) {
  return { via: 'email', to: email.to.trim().toLowerCase(), what: email.kind, at, eventId: email.eventId.slice(0, 400) } as const;
}
