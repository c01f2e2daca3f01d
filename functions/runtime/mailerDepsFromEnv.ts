import { settingsFor } from '../config/settings';
import { rendererFor } from '../mail/emailRenderer';
import { loadPrecompiledTemplates } from '../mail/precompiledTemplates';
import { defaultTemplateRoot } from '../mail/templateRoot';
import { mailGovernor } from '../services/delivery/mailGovernor';
import type { DueReportsDeps } from '../services/report/dueReports';
import { createObservability, type Observability } from '../shared/observability';
import type { ChainClient } from '../chain/ports';
import { digestSenderFor } from './digestSenderFor';
import { actionLinksFrom, chainFrom, repositoriesFrom, sesClientFrom, sesSenderFrom } from './factories';
import { mailRateFrom } from './mailRate';

/**
 * What the two mailer Lambdas (`notify`, `daily-report`) are built from in AWS: tables, SES paced
 * by the mail-rate governor (alerts for notify, reports for daily-report; the rate split across the
 * function's `MAIL_RATE_WORKERS` instances), the precompiled templates shipped next to the bundle,
 * action links, their own logger/metrics, and the chain's indexer for the report's windows
 * (created on first use, so `notify`, which never reads the chain, needs no chain settings).
 */
export async function mailerDepsFromEnv(
  service: 'notify' | 'daily-report',
  env: Readonly<Record<string, string | undefined>>,
): Promise<
  DueReportsDeps & { readonly now: () => number; readonly flush: () => void; readonly addContext: Observability['addContext']; readonly deadlineMarginMs: number }
> {
  const settings = settingsFor(service, env);
  const { log, counters, flush, addContext } = createObservability(service);
  let chain: ChainClient | undefined;
  const ses = sesClientFrom(settings);
  const governor = mailGovernor({ rate: await mailRateFrom(settings, ses), workers: settings.MAIL_RATE_WORKERS, counters });
  const deps = {
    chain: { getPortfolio: (query, options) => (chain ??= chainFrom(settings, log)).getPortfolio(query, options) } satisfies DueReportsDeps['chain'],
    repos: repositoriesFrom(settings),
    sender: governor.sender(sesSenderFrom(settings, ses), service === 'notify' ? 'alert' : 'report'),
    renderer: rendererFor(await loadPrecompiledTemplates(settings.TEMPLATES_DIR ?? defaultTemplateRoot())),
    links: await actionLinksFrom(settings),
    mailFrom: settings.MAIL_FROM,
    log,
    counters,
    flush,
    addContext,
    deadlineMarginMs: settings.DEADLINE_MARGIN_MS,
    now: Date.now,
  };
  return { ...deps, digest: digestSenderFor(deps) };
}
