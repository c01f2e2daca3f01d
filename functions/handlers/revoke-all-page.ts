import type { RevokeAllJob } from '../messages/revokeAllJob';
import { pageBasics } from '../runtime/handlerBasics';
import { lazyHandler } from '../runtime/lazyHandler';
import { someRepositoriesFrom, sqsQueueFrom } from '../runtime/factories';
import { AccountsRepository } from '../store/accountsRepository';
import { DelegateViewRepository } from '../store/delegateViewRepository';
import { RevokeAllRepository } from '../store/revokeAllRepository';
import { ChannelsRepository } from '../store/channelsRepository';
import { createFormPageHandler, type PageHandlerDeps } from '../web/pageHandler';
import { revokeAllPage, type RevokeAllPageDeps } from '../web/revokeAllPage';
import { renderRevokeAllView } from '../web/revokeAllViews';

/** What `revoke-all-page` needs: the ports of the revoke-all page service. */
export type RevokeAllPageHandlerDeps = RevokeAllPageDeps & PageHandlerDeps;

/**
 * The `/revoke-all` endpoint: the list of delegates a revoke-all link removes on GET, one queued
 * removal per delegate on POST (the revocations queue), each delegate's result afterwards. It signs
 * nothing and cannot invoke the signer: the revoke-all worker does, one delegate at a time.
 */
export function createRevokeAllPageHandler(deps: RevokeAllPageHandlerDeps) {
  return createFormPageHandler(deps, { name: 'revoke-all page', path: 'revoke-all', decide: revokeAllPage, render: renderRevokeAllView });
}

/** Deps from the Lambda environment: tables (a chat link's channel among them), the public revoke-all keys and the anti-CSRF secret, and the revocations queue. */
export async function revokeAllPageDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): Promise<RevokeAllPageHandlerDeps> {
  const { settings, flush, page } = await pageBasics('revoke-all-page', env);
  const repos = someRepositoriesFrom(settings, {
    accounts: AccountsRepository,
    delegates: DelegateViewRepository,
    revokeAll: RevokeAllRepository,
    channels: ChannelsRepository,
  });
  return {
    ...page,
    accounts: repos.accounts,
    delegates: repos.delegates,
    batches: repos.revokeAll,
    channels: repos.channels,
    queue: sqsQueueFrom<RevokeAllJob>(settings, 'REVOCATION_QUEUE_URL'),
    flushMetrics: flush,
  };
}

export const handler = lazyHandler(async () => createRevokeAllPageHandler(await revokeAllPageDepsFromEnv()));
