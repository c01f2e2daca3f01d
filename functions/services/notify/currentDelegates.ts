import type { TrackedAccount } from '../../domain/account';
import type { DelegateViewRepository } from '../../store/delegateViewRepository';

/** How many delegates the Revoke-all page would list now (the revoke-all link's N: collection's views less the keys the signer revoked or found gone since, web sessions included); none counted without a signer. */
export async function currentDelegates(delegates: Pick<DelegateViewRepository, 'listForAccount'>, account: TrackedAccount): Promise<number> {
  if (account.signer === null) return 0;
  return (await delegates.listForAccount(account.address)).filter((d) => d.removedAt === null).length;
}
