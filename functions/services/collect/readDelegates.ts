import type { ChainClient } from '../../chain/ports';
import { ChainError } from '../../chain/errors';
import type { Delegate } from '../../chain/schemas';
import type { CollectDeps, CollectOutcome } from './collectDeps';

/**
 * An account's delegates (`GET /delegate-traders`), or the `ChainError` that kept them from being
 * read (the caller decides what a failed read means). Anything else throws.
 */
export async function tryReadDelegates(
  chain: Pick<ChainClient, 'getDelegateTraders'>,
  address: string,
): Promise<{ kind: 'read'; delegates: Delegate[] } | { kind: 'chain-failed'; error: ChainError }> {
  try {
    return { kind: 'read', delegates: await chain.getDelegateTraders(address) };
  } catch (error) {
    if (error instanceof ChainError) return { kind: 'chain-failed', error };
    throw error;
  }
}

/**
 * One delegate-watch read of an account's delegates (`tryReadDelegates`). A chain failure is
 * counted (`DelegateWatchErrors`), logged and returned as `delegates-failed`: the account's
 * health is the curve polls' business. Anything else throws.
 */
export async function readDelegates(
  deps: Pick<CollectDeps, 'chain' | 'counters' | 'log'>,
  address: string,
): Promise<{ kind: 'read'; delegates: Delegate[] } | CollectOutcome> {
  const read = await tryReadDelegates(deps.chain, address);
  if (read.kind === 'read') return read;
  deps.counters.count('DelegateWatchErrors');
  deps.log.warn('delegate watch failed', { account: address, error: read.error.name, reason: read.error.shortMessage });
  return { kind: 'delegates-failed', address, reason: read.error.shortMessage };
}
