import type { ChainClient } from '../chain/ports';
import { settingsFor } from '../config/settings';
import type { DueReportsDeps } from '../services/report/dueReports';
import { digestSenderFor } from './digestSenderFor';
import { chainFrom } from './factories';
import { mailerDepsFromEnv, type MailerDeps } from './mailerDepsFromEnv';

/**
 * The `daily-report` Lambda's dependencies: the mailer's (`mailerDepsFromEnv`), the chain's indexer
 * for the report's windows (created on first use) and the digest sender. Kept apart from
 * `mailerDepsFromEnv` so the notify bundle holds neither the chain client nor the report service.
 */
export async function reportMailerDepsFromEnv(env: Readonly<Record<string, string | undefined>>): Promise<MailerDeps & DueReportsDeps> {
  const settings = settingsFor('daily-report', env);
  const mailer = await mailerDepsFromEnv('daily-report', env);
  let chain: ChainClient | undefined;
  const deps = {
    ...mailer,
    chain: { getPortfolio: (query, options) => (chain ??= chainFrom(settings, mailer.log)).getPortfolio(query, options) } satisfies DueReportsDeps['chain'],
  };
  return { ...deps, digest: digestSenderFor(deps) };
}
