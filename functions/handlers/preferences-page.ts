import { actionUrl } from '../links/linkPaths';
import { sesSenderFrom, someRepositoriesFrom } from '../runtime/factories';
import { linkMinterFrom } from '../runtime/linkMinterFrom';
import { PageLinks } from '../links/pageLinks';
import { HANDLER_CATALOG } from '../config/handlerCatalog';
import { mailboxNotices } from '../services/preferences/mailboxNotice';
import { AccountsRepository } from '../store/accountsRepository';
import { DeliveryRepository } from '../store/deliveryRepository';
import { AccountHistoryRepository } from '../store/accountHistoryRepository';
import { AlertStateRepository } from '../store/alertStateRepository';
import { ChannelsRepository } from '../store/channelsRepository';
import { PreferencesRepository } from '../store/preferencesRepository';
import type { Repositories } from '../store/repositories';
import { pickRepositories } from '../store/repositoriesOf';
import { TokenRepository } from '../store/tokenRepository';
import { pageBasics } from '../runtime/handlerBasics';
import { lazyHandler } from '../runtime/lazyHandler';
import { preferencesPage, type PreferencesPageDeps } from '../web/preferencesPage';
import { renderPreferencesView } from '../web/preferencesViews';
import { createPageHandler, type PageHandlerDeps } from '../web/pageHandler';

/** What `preferences-page` needs: the ports of the unsubscribe/snooze service. */
export type PreferencesPageHandlerDeps = PreferencesPageDeps & PageHandlerDeps;

/** The tables `preferences-page` reads and writes: its Lambda builds only these. */
const PREFERENCES_PAGE_REPOSITORIES = {
  preferences: PreferencesRepository,
  alerts: AlertStateRepository,
  accounts: AccountsRepository,
  channels: ChannelsRepository,
  tokens: TokenRepository,
  history: AccountHistoryRepository,
  deliveries: DeliveryRepository,
};

/** `preferences-page`'s tables out of a fuller set of repositories (the local system's, a test world's): the same ones its Lambda builds. */
export function preferencesPageTables(repos: Pick<Repositories, keyof typeof PREFERENCES_PAGE_REPOSITORIES>) {
  return pickRepositories(repos, PREFERENCES_PAGE_REPOSITORIES);
}

/**
 * The public `/unsubscribe` (incl. RFC 8058 one-click POST), `/preferences` and `/snooze` endpoints (HTTP API
 * payload 2.0 events); every answer is an HTML page with the security headers. Never logs the
 * token or the URL.
 */
export function createPreferencesPageHandler(deps: PreferencesPageHandlerDeps) {
  const actions = {
    unsubscribe: actionUrl(deps.publicBaseUrl, 'unsubscribe'),
    snooze: actionUrl(deps.publicBaseUrl, 'snooze'),
    preferences: actionUrl(deps.publicBaseUrl, 'preferences'),
  };
  return createPageHandler(deps, {
    name: 'preferences page',
    decide: (request) => preferencesPage(deps, request),
    render: (view) => renderPreferencesView(view, actions),
  });
}

/** Deps from the Lambda environment: preferences, alerts, accounts and channels (read), tokens (snooze# items) and history (alert# items: the snoozes set) tables, the public keys of the links it reads, the private keys of the two it mails (preferences, security-off), the anti-CSRF secret and SES (the mailbox's own notices). */
export async function preferencesPageDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): Promise<PreferencesPageHandlerDeps> {
  const { settings, page } = await pageBasics('preferences-page', env);
  const repos = someRepositoriesFrom(settings, PREFERENCES_PAGE_REPOSITORIES);
  return {
    ...page,
    links: new PageLinks(page.links, await linkMinterFrom(settings, HANDLER_CATALOG['preferences-page'].requires.links.mints)),
    ...repos,
    mailbox: mailboxNotices({ repos, sender: sesSenderFrom(settings), mailFrom: settings.MAIL_FROM, now: page.now, log: page.log }),
  };
}

export const handler = lazyHandler(async () => createPreferencesPageHandler(await preferencesPageDepsFromEnv()));
