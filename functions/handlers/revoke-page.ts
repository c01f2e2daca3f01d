import { lambdaRevocationSignerFrom } from '../web/lambdaRevocationSigner';
import { someRepositoriesFrom } from '../runtime/factories';
import { AccountsRepository } from '../store/accountsRepository';
import { DelegateViewRepository } from '../store/delegateViewRepository';
import { PreferencesRepository } from '../store/preferencesRepository';
import { SuppressionRepository } from '../store/suppressionRepository';
import { TokenRepository } from '../store/tokenRepository';
import { ChannelsRepository } from '../store/channelsRepository';
import type { Repositories } from '../store/repositories';
import { pickRepositories } from '../store/repositoriesOf';
import { pageBasics } from '../runtime/handlerBasics';
import { lazyHandler } from '../runtime/lazyHandler';
import { revocationPage, type RevocationPageDeps } from '../web/revocationPage';
import { renderRevocationView } from '../web/revocationViews';
import { createFormPageHandler, type PageHandlerDeps } from '../web/pageHandler';

/** What `revoke-page` needs: the ports of the revocation page service. */
export type RevokePageDeps = RevocationPageDeps & PageHandlerDeps;

/** The tables `revoke-page` reads and writes: its Lambda builds only these. */
const REVOKE_PAGE_REPOSITORIES = {
  accounts: AccountsRepository,
  delegates: DelegateViewRepository,
  tokens: TokenRepository,
  suppressions: SuppressionRepository,
  preferences: PreferencesRepository,
  channels: ChannelsRepository,
};

/** `revoke-page`'s tables out of a fuller set of repositories (the local system's, a test world's): the same ones its Lambda builds. */
export function revokePageTables(repos: Pick<Repositories, keyof typeof REVOKE_PAGE_REPOSITORIES>) {
  return pickRepositories(repos, REVOKE_PAGE_REPOSITORIES);
}

/**
 * The public `/revoke` endpoint (HTTP API payload 2.0 events): the confirmation page on GET, the
 * confirmed revocation on POST, each answer an HTML page with the security headers. Never logs
 * the token or the URL.
 */
export function createRevokePageHandler(deps: RevokePageDeps) {
  return createFormPageHandler(deps, { name: 'revocation page', path: 'revoke', decide: revocationPage, render: renderRevocationView });
}

/** Deps from the Lambda environment: tables (a chat link's channel among them), the public revoke keys and the anti-CSRF secret, and the signing function by name. */
export async function revokePageDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): Promise<RevokePageDeps> {
  const { settings, counters, flush, page } = await pageBasics('revoke-page', env);
  return {
    ...page,
    ...someRepositoriesFrom(settings, REVOKE_PAGE_REPOSITORIES),
    signer: lambdaRevocationSignerFrom(settings),
    counters,
    flushMetrics: flush,
  };
}

export const handler = lazyHandler(async () => createRevokePageHandler(await revokePageDepsFromEnv()));
