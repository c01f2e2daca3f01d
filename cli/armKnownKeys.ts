import { ConfigError } from '../functions/config/settings';
import type { ChainClient } from '../functions/chain/ports';
import { takeKnownDelegates, type TakeKnownOutcome } from '../functions/services/knownKeys/takeKnownDelegates';
import type { CliRuntime } from './cliRuntime';

/**
 * Takes the known keys of accounts whose `--revoke-unknown` was just turned on (added, imported
 * or updated): see `takeKnownDelegates`. Without a configured chain the next delegate check takes them.
 */
export async function armKnownKeys(rt: CliRuntime, address: string): Promise<TakeKnownOutcome> {
  let chain: ChainClient | null = null;
  try {
    chain = rt.chain();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
  }
  return takeKnownDelegates({ chain, accounts: rt.repos.accounts, delegates: rt.repos.delegates, knownDelegates: rt.repos.knownDelegates }, address, rt.now());
}

/** One line for stderr about what arming did. */
export function armedNote(address: string, outcome: TakeKnownOutcome): string {
  if (outcome.kind === 'taken') {
    return `revoke-unknown: ${address} has ${outcome.keys} known key${outcome.keys === 1 ? '' : 's'}; announce new ones first with "sentinel delegates expect ${address} <delegate>"\n`;
  }
  return `note: revoke-unknown: the delegates of ${address} could not be read now (${outcome.reason}); the keys listed at its next delegate check become its known keys\n`;
}
