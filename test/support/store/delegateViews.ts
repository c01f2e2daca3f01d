import type { ChainClient } from '../../../functions/chain/ports';
import type { Repositories } from '../../../functions/store/repositories';

/**
 * Stores the delegates the chain lists for `account` as the delegate watch first sees them (seen
 * `now`, nothing sent yet), so pages and signers find them without a watch run.
 */
export async function registerDelegateViews(
  repos: Pick<Repositories, 'delegates'>,
  chain: Pick<ChainClient, 'getDelegateTraders'>,
  account: string,
  now: number,
): Promise<void> {
  const listed = await chain.getDelegateTraders(account);
  await repos.delegates.putMany(
    listed.map((d) => ({
      address: account,
      delegate: d.address,
      name: d.name,
      expiryMs: d.expiryMs,
      isWebClient: d.isWebClient,
      firstSeenAt: now,
      lastSeenAt: now,
      warningsSent: [],
      expiredNoticeSent: false,
      removedAt: null,
      generation: 1,
    })),
  );
}
