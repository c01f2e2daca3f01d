import type { TrackedAccount } from '../../../domain/account';
import type { AccountsRepository } from '../../../store/accountsRepository';
import type { RecipientRecord } from '../../../store/recipientsRepository';

/**
 * The accounts of a recipient, as stored now: those in its record that are still tracked and
 * still mail it, by address.
 */
export async function recipientAccounts(
  deps: { readonly repos: { readonly accounts: Pick<AccountsRepository, 'getMany'> } },
  record: RecipientRecord,
): Promise<TrackedAccount[]> {
  const found = await deps.repos.accounts.getMany(record.accounts);
  return found
    .filter((account) => account.emails.some((email) => email.trim().toLowerCase() === record.email))
    .sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}
