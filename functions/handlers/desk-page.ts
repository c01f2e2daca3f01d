import { HANDLER_CATALOG } from '../config/handlerCatalog';
import { sesSenderFrom, someRepositoriesFrom } from '../runtime/factories';
import { linkMinterFrom } from '../runtime/linkMinterFrom';
import { pageBasics } from '../runtime/handlerBasics';
import { lazyHandler } from '../runtime/lazyHandler';
import { signInMail } from '../services/desk/signInMail';
import { COLLECTED_REPOSITORIES } from '../store/collectedRepositories';
import { DeskOperatorsRepository } from '../store/deskOperatorsRepository';
import { DeskRateRepository } from '../store/deskRateRepository';
import { DeskRecipientRepository } from '../store/deskRecipientRepository';
import { DeskSessionRepository } from '../store/deskSessionRepository';
import { DeskSignInRepository } from '../store/deskSignInRepository';
import { DeskChallengeRepository } from '../store/deskChallengeRepository';
import { DeskChannelTestRepository } from '../store/deskChannelTestRepository';
import { PasskeyRepository } from '../store/passkeyRepository';
import type { Repositories } from '../store/repositories';
import { RecipientsRepository } from '../store/recipientsRepository';
import { ChannelsRepository } from '../store/channelsRepository';
import { NO_DESK_ASSETS } from '../web/desk/deskAssets';
import { readDeskAssets } from '../web/desk/deskAssetsDir';
import { deskPage, type DeskPageDeps } from '../web/desk/deskPage';
import { DESK_PATHS, deskUrl } from '../web/desk/deskPaths';
import { renderDeskView } from '../web/desk/deskView';
import { lambdaChannelTesterFrom } from '../web/lambdaChannelTester';
import { createPageHandler, type PageHandlerDeps } from '../web/pageHandler';

/** What `desk-page` needs: the desk's ports and the page handler's own. */
export type DeskPageHandlerDeps = DeskPageDeps & PageHandlerDeps;

/** The least time a sign-in request takes to answer, so its timing tells nothing (see `requestSignIn`). */
export const SIGN_IN_ANSWER_FLOOR_MS = 1_000;

/**
 * The desk page (`/desk` and below): every answer carries the desk's security headers; pages are
 * HTML, the chart data JSON, the client hashed static files. Never logs a token, a cookie or a URL.
 */
export function createDeskPageHandler(deps: DeskPageHandlerDeps) {
  const passkeys = deps.assets.fileOf('passkeys.js');
  const ctx = { baseUrl: deps.publicBaseUrl, signInScripts: passkeys ? [deskUrl(deps.publicBaseUrl, `${DESK_PATHS.assets}/${passkeys}`)] : [] };
  return createPageHandler(deps, { name: 'desk page', decide: (request) => deskPage(deps, request), render: (view) => renderDeskView(view, ctx) });
}

/** The repositories the desk reads (and, for its own items, writes). */
export type DeskRepositories = Pick<
  Repositories,
  | 'accounts'
  | 'recipients'
  | 'deskOperators'
  | 'deskSessions'
  | 'deskRecipients'
  | 'curves'
  | 'snapshots'
  | 'alerts'
  | 'delegates'
  | 'knownDelegates'
  | 'decisions'
  | 'channels'
  | 'deskSignIns'
  | 'deskChallenges'
  | 'deskChannelTests'
  | 'passkeys'
  | 'deskRates'
  | 'deskSummaries'
  | 'history'
>;

/** The desk's store deps from its repositories (the Lambda's, the local system's, a test's, the benchmark's). */
export function deskRepositoryDeps(repos: DeskRepositories) {
  return {
    accounts: repos.accounts,
    recipients: repos.recipients,
    operators: repos.deskOperators,
    stores: { sessions: repos.deskSessions, recipients: repos.deskRecipients },
    data: {
      curves: repos.curves,
      snapshots: repos.snapshots,
      alerts: repos.alerts,
      delegates: repos.delegates,
      knownDelegates: repos.knownDelegates,
      decisions: repos.decisions,
      summaries: repos.deskSummaries,
      history: repos.history,
    },
    snoozes: repos.alerts,
    history: repos.history,
    channels: repos.channels,
    channelTests: repos.deskChannelTests,
    signIns: repos.deskSignIns,
    passkeyStore: { challenges: repos.deskChallenges, passkeys: repos.passkeys },
    rates: repos.deskRates,
  } satisfies Partial<DeskPageDeps>;
}

/** Deps from the Lambda environment: the tables it reads (and the `desk` table it owns), its link keys, the anti-CSRF secret, SES, the `channel-test` function. */
export async function deskPageDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): Promise<DeskPageHandlerDeps> {
  const { settings, flush, page } = await pageBasics('desk-page', env);
  const repos = someRepositoriesFrom(settings, {
    // The account data the desk shows, as collection keeps it.
    ...COLLECTED_REPOSITORIES,
    recipients: RecipientsRepository,
    deskSessions: DeskSessionRepository,
    deskRecipients: DeskRecipientRepository,
    deskSignIns: DeskSignInRepository,
    deskRates: DeskRateRepository,
    deskOperators: DeskOperatorsRepository,
    deskChallenges: DeskChallengeRepository,
    deskChannelTests: DeskChannelTestRepository,
    passkeys: PasskeyRepository,
    channels: ChannelsRepository,
  });
  const assets = settings.DESK_ASSETS_DIR === undefined ? NO_DESK_ASSETS : readDeskAssets(settings.DESK_ASSETS_DIR);
  const minter = await linkMinterFrom(settings, HANDLER_CATALOG['desk-page'].requires.links.mints, { revokeAllServed: true });
  return {
    ...page,
    reader: page.links,
    links: minter,
    revokeLinks: minter,
    ...deskRepositoryDeps(repos),
    // The Test button on the channels page: the private `channel-test` function, which alone reads the channels' secrets.
    channelTester: lambdaChannelTesterFrom(settings),
    operatorEmail: settings.OPERATOR_EMAIL ?? null,
    mail: signInMail({ sender: sesSenderFrom(settings), mailFrom: settings.MAIL_FROM, now: page.now }),
    answerFloorMs: SIGN_IN_ANSWER_FLOOR_MS,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    passkeys: assets.fileOf('passkeys.js') !== null,
    assets,
    flushMetrics: flush,
  };
}

export const handler = lazyHandler(async () => createDeskPageHandler(await deskPageDepsFromEnv()));
