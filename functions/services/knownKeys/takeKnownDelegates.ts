import { ChainError } from '../../chain/errors';
import type { ChainClient } from '../../chain/ports';
import type { Address } from '../../domain/address';
import { delegateDigest, formatDelegateMark } from '../../domain/delegateMark';
import type { AccountsRepository } from '../../store/accountsRepository';
import type { DelegateViewRepository } from '../../store/delegateViewRepository';
import type { KnownDelegatesRepository } from '../../store/knownDelegatesRepository';

/** What taking the known keys came to. */
export type TakeKnownOutcome =
  | { readonly kind: 'taken'; readonly keys: number }
  /** The chain could not be read now: the next delegate check takes them, and judges nothing on that check. */
  | { readonly kind: 'pending'; readonly reason: string };

/**
 * Takes an account's known keys as unknown-key protection is armed (an account added or imported
 * with `--revoke-unknown` on, or turned on): every delegate the chain lists now, together with
 * every delegate earlier checks saw listed (so an empty or partial read cannot leave a key out).
 * When the chain cannot be read (`chain` is `null` when none is configured) or lists nothing
 * known, the baseline is cleared instead, and the next delegate check listing a key takes it
 * before judging any key.
 */
export async function takeKnownDelegates(
  deps: {
    chain: Pick<ChainClient, 'getDelegateTraders'> | null;
    accounts: Pick<AccountsRepository, 'setDelegateMark'>;
    delegates: Pick<DelegateViewRepository, 'listForAccount'>;
    knownDelegates: KnownDelegatesRepository;
  },
  address: string,
  now: number,
): Promise<TakeKnownOutcome> {
  const listedBefore = (await deps.delegates.listForAccount(address)).filter((v) => v.removedAt === null).map((v) => v.delegate as Address);
  const read = await readCurrent(deps.chain, address);
  if (read.kind === 'failed') return pending(deps, address, now, read.reason);
  const current = read.delegates;
  const known = [...new Map([...current, ...listedBefore].map((a) => [a.toLowerCase(), a])).values()];
  // An empty read may be a hiccup: an empty baseline would make every key unknown once listed again.
  if (known.length === 0) return pending(deps, address, now, 'no delegate listed');
  await deps.knownDelegates.recordKeys(address, { known, source: 'baseline', baselineAt: now, at: now });
  return { kind: 'taken', keys: known.length };
}

/**
 * No baseline for now: the next delegate check takes it. Its mark is made due now, so that check
 * is a full one even while the list is unchanged (otherwise the baseline would wait for a change,
 * and the change could be an intruder's key).
 */
async function pending(
  deps: { accounts: Pick<AccountsRepository, 'setDelegateMark'>; knownDelegates: KnownDelegatesRepository },
  address: string,
  now: number,
  reason: string,
): Promise<TakeKnownOutcome> {
  await deps.knownDelegates.clearBaseline(address);
  await deps.accounts.setDelegateMark(address, formatDelegateMark({ digest: delegateDigest([]), recheckAt: now }));
  return { kind: 'pending', reason };
}

async function readCurrent(
  chain: Pick<ChainClient, 'getDelegateTraders'> | null,
  address: string,
): Promise<{ kind: 'read'; delegates: Address[] } | { kind: 'failed'; reason: string }> {
  if (chain === null) return { kind: 'failed', reason: 'no chain configured' };
  try {
    return { kind: 'read', delegates: (await chain.getDelegateTraders(address)).map((d) => d.address) };
  } catch (error) {
    if (!(error instanceof ChainError)) throw error;
    return { kind: 'failed', reason: error.shortMessage };
  }
}
