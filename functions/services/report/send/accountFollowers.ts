import { followsAccountSchedule } from '../../../domain/recipientSettings';
import type { TrackedAccount } from '../../../domain/account';
import type { RecipientsRepository } from '../../../store/recipientsRepository';

/**
 * The addresses of `account` whose daily report is the account's own (no recipient record, or a
 * per-account one without a zone or time override), in the account's order. The others get theirs
 * from their own schedule.
 */
export async function accountFollowers(recipients: Pick<RecipientsRepository, 'getMany'>, account: Pick<TrackedAccount, 'emails'>): Promise<string[]> {
  const records = await recipients.getMany(account.emails);
  return account.emails.filter((email) => {
    const record = records.get(email.trim().toLowerCase());
    return record === undefined || followsAccountSchedule(record);
  });
}
