import { rendererFor } from '../mail/render/emailRenderer';
import { loadPrecompiledTemplates } from '../mail/render/precompiledTemplates';
import { defaultTemplateRoot } from '../mail/render/templateRoot';
import type { EmailRenderer } from '../mail/render/emailRenderer';
import { mailGovernor } from '../services/delivery/mailGovernor';
import type { MailDeliveryDeps } from '../services/delivery/mailDelivery';
import type { Counters, Log, Observability } from '../shared/observability';
import { handlerBasics } from './handlerBasics';
import type { Links } from '../links/linkMinter';
import type { Repositories } from '../store/repositories';
import type { RepositoryClasses } from '../store/repositoriesOf';
import type { MessageVisibility } from '../queue/messageVisibility';
import { messageVisibilityFrom, sesClientFrom, sesSenderFrom, someRepositoriesFrom } from './factories';
import { mailRateFrom } from '../mail/send/mailRate';
import { linkMinterFrom } from './linkMinterFrom';
import { HANDLER_CATALOG } from '../config/handlerCatalog';

/** What both mailer Lambdas are built from (see `mailerDepsFromEnv`), with the repositories named `K`. */
export interface MailerDeps<K extends keyof Repositories> {
  readonly repos: Pick<Repositories, K>;
  readonly sender: MailDeliveryDeps['sender'];
  readonly renderer: EmailRenderer;
  /** Links of the purposes the function mints (`HANDLER_CATALOG`): it holds those private keys only. */
  readonly links: Links;
  readonly mailFrom: string;
  readonly log: Log;
  readonly counters: Counters;
  readonly flush: () => void;
  readonly addContext: Observability['addContext'];
  readonly deadlineMarginMs: number;
  /** A failed record's backoff on its queue. */
  readonly visibility: MessageVisibility;
  readonly now: () => number;
}

/**
 * What the two mailer Lambdas (`notify`, `daily-report`) are built from in AWS: tables, SES paced
 * by the mail-rate governor (alerts for notify, reports for daily-report; the rate split across the
 * function's `MAIL_RATE_WORKERS` instances), the precompiled templates shipped next to the bundle,
 * action links, their own logger/metrics, and the repositories of `repositories` only. The report's chain and digest sender are added by
 * `reportMailerDepsFromEnv`, so the notify bundle holds neither the chain client nor the report service.
 */
export async function mailerDepsFromEnv<K extends keyof Repositories>(
  service: 'notify' | 'daily-report',
  env: Readonly<Record<string, string | undefined>>,
  repositories: RepositoryClasses<K>,
): Promise<MailerDeps<K>> {
  const { settings, ...basics } = handlerBasics(service, env);
  const ses = sesClientFrom(settings);
  const governor = mailGovernor({ rate: await mailRateFrom(settings, ses), workers: settings.MAIL_RATE_WORKERS, counters: basics.counters });
  return {
    ...basics,
    repos: someRepositoriesFrom(settings, repositories),
    sender: governor.sender(sesSenderFrom(settings, ses), service === 'notify' ? 'alert' : 'report'),
    renderer: rendererFor(await loadPrecompiledTemplates(settings.TEMPLATES_DIR ?? defaultTemplateRoot())),
    links: await linkMinterFrom(settings, HANDLER_CATALOG[service].requires.links.mints),
    mailFrom: settings.MAIL_FROM,
    visibility: messageVisibilityFrom(settings),
  };
}
