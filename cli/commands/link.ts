import type { Command } from 'commander';
import { parseAddressArgument as parseAddress } from '../readAddress';
import type { Address } from '../../functions/domain/address';
import { DEFAULT_LINK_TTL_MS } from '../../functions/domain/linkClaims';
import { ConfigError } from '../../functions/config/settings';
import type { CliContext, CliRuntime } from '../cliRuntime';
import { printJson } from '../output';
import { awsKeySecretReader, publicKeysToPublish, writePublishedKeys } from '../linkKeysPublisher';

/**
 * Whether `delegate` is a current delegate of `account`: in the stored delegate view (what the
 * last collection saw), else on the chain when it is configured.
 */
async function isDelegate(rt: CliRuntime, account: Address, delegate: Address): Promise<boolean> {
  const seen = await rt.repos.delegates.listForAccount(account);
  if (seen.some((d) => d.delegate.toLowerCase() === delegate.toLowerCase() && d.removedAt === null)) return true;
  let chain;
  try {
    chain = rt.chain();
  } catch (error) {
    if (error instanceof ConfigError) return false;
    throw error;
  }
  const live = await chain.getDelegateTraders(account);
  return live.some((d) => d.address.toLowerCase() === delegate.toLowerCase());
}

/**
 * `sentinel link publish-keys [--retire-previous] [--json]`: publishes the public link keys of a
 * stage (see "Rotating the link keys" in docs/operations.md).
 *
 * `sentinel link revoke <account> <delegate> [--json]`: prints a one-click revocation link (the
 * same kind every delegate email carries). The account must be tracked and the delegate one of
 * its delegates; a warning on stderr says
 * when it has no signer, as the link then only explains that revocation is not set up.
 */
export function register(program: Command, context: CliContext): void {
  const link = program.command('link').description('print action links');
  link
    .command('revoke')
    .argument('<account>', 'tracked account address')
    .argument('<delegate>', 'delegate (API key) address to revoke')
    .option('--json', 'print {link, account, delegate, expiresAt} as one JSON document')
    .description('print a one-click revocation link for a delegate of a tracked account')
    .action(async (accountArg: string, delegateArg: string, options: { json?: boolean }) => {
      const account = parseAddress('account', accountArg);
      const delegate = parseAddress('delegate', delegateArg);
      const rt = await context.runtime();
      const tracked = await rt.repos.accounts.get(account);
      if (!tracked) throw new Error(`${account} is not tracked; add it with "sentinel accounts add"`);
      if (!(await isDelegate(rt, account, delegate))) {
        throw new Error(`${delegate} is not a delegate of ${account} (not among its delegates as last collected, nor on the chain); no link printed`);
      }
      if (tracked.signer === null) {
        context.io.err(`warning: ${account} has no signer, so this link cannot revoke anything until one is set (accounts update --signer)\n`);
      }
      const links = await rt.links();
      const now = rt.now();
      const url = links.build({ purpose: 'revoke', account, delegate }, now);
      const expiresAt = new Date(now + DEFAULT_LINK_TTL_MS.revoke).toISOString();
      if (options.json) printJson(context.io, { link: url, account, delegate, expiresAt });
      else context.io.out(`${url}\n`);
    });

  link
    .command('publish-keys')
    .option('--retire-previous', "publish no key of a secret's AWSPREVIOUS version: links it signed are refused once the pages restart")
    .option('--json', 'print the published public keys as one JSON document')
    .description("publish the pages' public link keys (AWS): per purpose those of AWSPENDING, AWSCURRENT and AWSPREVIOUS")
    .action(async (options: { retirePrevious?: boolean; json?: boolean }) => {
      const rt = await context.runtime();
      if (rt.settings.SENTINEL_LINK_SECRET !== undefined) {
        context.io.err('locally every link key is derived from SENTINEL_LINK_SECRET (.sentinel/link-secret): nothing to publish\n');
        return;
      }
      const record = await publicKeysToPublish(awsKeySecretReader(rt.settings), options.retirePrevious === true);
      await writePublishedKeys(rt.settings, record);
      if (options.json) printJson(context.io, record);
      else for (const [purpose, keys] of Object.entries(record)) context.io.out(`${purpose}: ${(keys ?? []).map((k) => k.kid).join(', ')}\n`);
    });
}
