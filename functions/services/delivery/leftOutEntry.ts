import { emailEntryBase, type DeliveryHistoryEntry } from '../../domain/deliveryHistoryEntry';
import type { MailCategory } from '../../domain/mailCategory';
import { formatTime } from '../../mail/render/format';
import type { LeftOutReason, LeftOutRecipient } from '../../notices/leftOutRecipient';
import type { AccountHistoryRepository } from '../../store/accountHistoryRepository';

const CATEGORY_WORDS: Readonly<Record<MailCategory, string>> = {
  reports: 'reports',
  drawdown: 'drawdown alerts',
  expiry: 'delegate expiry notices',
  security: 'security notices',
};

/** Why a recipient was left out, in plain words (a snooze's end in the account's zone). */
export function leftOutText(reason: LeftOutReason, timeZone: string): string {
  switch (reason.kind) {
    case 'suppressed':
      return 'the address is suppressed after a bounce or complaint';
    case 'opted-out':
      return `opted out of ${CATEGORY_WORDS[reason.category]}`;
    case 'snoozed':
      return `snoozed these alerts until ${formatTime(reason.until, timeZone)}`;
  }
}

/** What was left unsent: the email kind, the event or report id, and a time that stays the same on a re-run (the event's or the report's due time). */
export interface LeftOutMail {
  readonly eventId: string;
  readonly kind: string;
  readonly at: number;
}

/** The account's `suppressed` delivery entry of one recipient left out of `mail`. */
export function leftOutEntry(left: LeftOutRecipient, mail: LeftOutMail, timeZone: string): DeliveryHistoryEntry {
  return { ...emailEntryBase({ ...mail, to: left.email }, mail.at), outcome: 'suppressed', reason: leftOutText(left.reason, timeZone) };
}

/**
 * Records one `suppressed` entry per recipient left out of `mail` in the account's deliveries (one
 * `PutItem` each). A re-run writes the same items again (same time, event and recipient), never a second one.
 */
export async function recordLeftOut(
  history: Pick<AccountHistoryRepository, 'recordDelivery'>,
  account: { readonly address: string; readonly timezone: string },
  leftOut: readonly LeftOutRecipient[],
  mail: LeftOutMail,
): Promise<void> {
  const entries = leftOut.map((left) => leftOutEntry(left, mail, account.timezone));
  await Promise.all(entries.map((entry) => history.recordDelivery(account.address, entry)));
}
