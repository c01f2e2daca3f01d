import { ChainError } from '../../chain/errors';
import type { Delegate } from '../../chain/schemas';
import type { CollectDeps, CollectOutcome } from './collectDeps';

/**
 * One delegate-watch read of an account's delegates (`GET /delegate-traders`). A chain failure
 * is counted (`DelegateWatchErrors`), logged and returned as `delegates-failed`: the account's
 * health is the curve polls' business. Anything else throws.
 */
export async function readDelegates(
  deps: Pick<CollectDeps, 'chain' | 'counters' | 'log'>,
  address: string,
): Promise<{ kind: 'read'; delegates: Delegate[] } | CollectOutcome> {
  try {
    return { kind: 'read', delegates: await deps.chain.getDelegateTraders(address) };
  } catch (error) {
    if (!(error instanceof ChainError)) throw error;
    deps.counters.count('DelegateWatchErrors');
    deps.log.warn('delegate watch failed', { account: address, error: error.name, reason: error.shortMessage });
    return { kind: 'delegates-failed', address, reason: error.shortMessage };
  }
}
