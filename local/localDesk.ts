import type { ChannelSenderDeps } from '../functions/channels/channelSender';
import type { Settings } from '../functions/config/settings';
import { deskRepositoryDeps, createDeskPageHandler, SIGN_IN_ANSWER_FLOOR_MS } from '../functions/handlers/desk-page';
import type { ActionLinks } from '../functions/links/actionLinks';
import type { MailSender } from '../functions/mail/send/sesSender';
import type { PageSecurity } from '../functions/runtime/pageSecurityFrom';
import { inProcessChannelTester } from '../functions/services/desk/inProcessChannelTester';
import { signInMail } from '../functions/services/desk/signInMail';
import type { Log } from '../functions/shared/observability';
import type { Repositories } from '../functions/store/repositories';
import { deskAssetsOf, NO_DESK_ASSETS, type DeskAssets } from '../functions/web/desk/deskAssets';
import { buildDeskClient } from '../infra/bundling/deskClient';

/** What the local desk page is built from: the local system's parts. */
export interface LocalDeskOptions {
  readonly settings: Settings;
  readonly repos: Repositories;
  readonly page: PageSecurity & { readonly links: ActionLinks };
  /** The governed sender of alerts (sign-in emails are one-off notices). */
  readonly sender: MailSender;
  readonly log: Log;
  /** The service clock (the simulator's, which `--fast` runs 60x): what the figures are read at. Links and sessions keep real time. */
  readonly now: () => number;
  /** How the channels page's Test button reaches the local chat receivers (the channel worker's). */
  readonly channelSender: ChannelSenderDeps;
  /** The built client (charts, passkeys); without it the pages still show every figure. */
  readonly assets?: DeskAssets;
}

/** The desk page handler of the local system (`npm start`, `sentinel serve`), on the same port as the link pages. */
export function createLocalDeskPage(options: LocalDeskOptions) {
  const { settings, repos, page, now, log } = options;
  const assets = options.assets ?? NO_DESK_ASSETS;
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  return createDeskPageHandler({
    ...page,
    reader: page.links,
    links: page.links,
    // The local endpoint serves /revoke and /revoke-all on the same port.
    revokeLinks: page.links,
    ...deskRepositoryDeps(repos),
    // In process: the local system has no private function to invoke (in AWS the desk invokes `channel-test`).
    channelTester: inProcessChannelTester({ channels: repos.channels, sender: options.channelSender, sleep }, Date.now),
    operatorEmail: settings.OPERATOR_EMAIL ?? null,
    mail: signInMail({ sender: options.sender, mailFrom: settings.MAIL_FROM, now: Date.now }),
    answerFloorMs: SIGN_IN_ANSWER_FLOOR_MS,
    sleep,
    passkeys: assets.fileOf('passkeys.js') !== null,
    assets,
    now: Date.now,
    figuresNow: now,
    log,
  });
}

/** The desk's browser client built from source (esbuild, as the Lambda bundle builds it), served from memory. */
export function localDeskAssets(): DeskAssets {
  return deskAssetsOf(buildDeskClient());
}
