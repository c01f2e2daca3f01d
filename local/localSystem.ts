import type { ChainClient } from '../functions/chain/ports';
import type { Settings } from '../functions/config/settings';
import { createDailyReportHandler } from '../functions/handlers/daily-report';
import { createNotifyHandler } from '../functions/handlers/notify';
import type { ActionLinks } from '../functions/links/actionLinks';
import { createEmailRenderer } from '../functions/mail/render';
import { actionLinksFrom, chainFrom, sesSenderFrom } from '../functions/runtime/factories';
import { collectSettingsFrom } from '../functions/services/collectSettings';
import type { Counters, Log } from '../functions/shared/observability';
import type { Repositories } from '../functions/store/repositories';
import { createLocalPipeline, type LocalPipeline } from './localPipeline';

export interface LocalSystemOptions {
  readonly settings: Settings;
  readonly repos: Repositories;
  readonly log: Log;
  readonly counters: Counters;
  readonly now: () => number;
  /** Used instead of building one from the settings (tests, the benchmark). */
  readonly chain?: ChainClient;
  /** Visibility timeout of the local queues: short, so a failed message is retried soon. */
  readonly visibilityTimeoutMs?: number;
}

/** Every deployed handler, wired to local adapters: what `npm start`, `serve` and the CLI run. */
export interface LocalSystem {
  readonly repos: Repositories;
  readonly chain: ChainClient;
  readonly links: ActionLinks;
  readonly pipeline: LocalPipeline;
  readonly dailyReport: ReturnType<typeof createDailyReportHandler>;
}

/**
 * Builds the system from settings that point at local (or real) services: the same handler
 * factories the Lambdas use, with in-process queues in place of SQS.
 */
export async function createLocalSystem(options: LocalSystemOptions): Promise<LocalSystem> {
  const { settings, repos, log, counters, now } = options;
  const chain = options.chain ?? chainFrom(settings, log);
  const links = await actionLinksFrom(settings);
  const mail = {
    repos,
    sender: sesSenderFrom(settings),
    renderer: createEmailRenderer(settings.TEMPLATES_DIR === undefined ? {} : { templateRoot: settings.TEMPLATES_DIR }),
    links,
    mailFrom: settings.MAIL_FROM,
    log,
    counters,
    now,
  };
  const pipeline = createLocalPipeline({
    repos,
    chain,
    log,
    counters,
    now,
    notifyConsumer: createNotifyHandler(mail),
    collectSettings: collectSettingsFrom(settings),
    ...(options.visibilityTimeoutMs === undefined ? {} : { visibilityTimeoutMs: options.visibilityTimeoutMs }),
  });
  return { repos, chain, links, pipeline, dailyReport: createDailyReportHandler(mail) };
}
