import type { ChainClient } from '../chain/ports';
import { AccountHistoryRepository } from '../store/accountHistoryRepository';
import { settingsFor } from '../config/settings';
import type { ReportDeps } from '../services/report/send/reportDeps';
import { AccountScheduleRepository } from '../store/accountScheduleRepository';
import { AccountsRepository } from '../store/accountsRepository';
import { AlertStateRepository } from '../store/alertStateRepository';
import { ChannelsRepository } from '../store/channelsRepository';
import { CachedChannelList } from '../store/cachedChannelList';
import type { ChannelJob, ReportFanOut } from '../messages/channelJob';
import { CurvesRepository } from '../store/curvesRepository';
import { DelegateViewRepository } from '../store/delegateViewRepository';
import { DeliveryRepository } from '../store/deliveryRepository';
import { PreferencesRepository } from '../store/preferencesRepository';
import { RecipientsRepository } from '../store/recipientsRepository';
import { ReportLedgerRepository } from '../store/reportLedgerRepository';
import { ReportRecordsRepository } from '../store/reportRecordsRepository';
import { SuppressionRepository } from '../store/suppressionRepository';
import { digestSenderFor } from './digestSenderFor';
import { chainFrom, sqsQueueFrom } from './factories';
import { mailerDepsFromEnv, type MailerDeps } from './mailerDepsFromEnv';

/** The repositories the report service uses. */
const REPORT_REPOSITORIES = {
  accounts: AccountsRepository,
  alerts: AlertStateRepository,
  channels: ChannelsRepository,
  schedule: AccountScheduleRepository,
  curves: CurvesRepository,
  delegates: DelegateViewRepository,
  deliveries: DeliveryRepository,
  history: AccountHistoryRepository,
  preferences: PreferencesRepository,
  recipients: RecipientsRepository,
  reportRecords: ReportRecordsRepository,
  reportLedger: ReportLedgerRepository,
  suppressions: SuppressionRepository,
} as const;

/**
 * The `daily-report` Lambda's dependencies: the mailer's (`mailerDepsFromEnv`), the chain's indexer
 * for the report's windows (created on first use), the fan-out queue an account report's chat
 * notice is published on (`FANOUT_QUEUE_URL`), the channel queue for digests to chat
 * (`CHANNEL_QUEUE_URL`, the channel list cached for `CHANNEL_LIST_CACHE_SECONDS`) and the digest sender. Kept apart from
 * `mailerDepsFromEnv` so the notify bundle holds neither the chain client nor the report service.
 */
export async function reportMailerDepsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): Promise<MailerDeps<keyof typeof REPORT_REPOSITORIES> & ReportDeps> {
  const settings = settingsFor('daily-report', env);
  const mailer = await mailerDepsFromEnv('daily-report', env, REPORT_REPOSITORIES);
  let chain: ChainClient | undefined;
  const deps = {
    ...mailer,
    storedDataGraceMs: settings.REPORT_STORED_DATA_GRACE_SECONDS * 1_000,
    fanOutQueue: sqsQueueFrom<ReportFanOut>(settings, 'FANOUT_QUEUE_URL'),
    channels: {
      channels: new CachedChannelList(mailer.repos.channels, settings.CHANNEL_LIST_CACHE_SECONDS * 1_000, mailer.now),
      alerts: mailer.repos.alerts,
      channelQueue: sqsQueueFrom<ChannelJob>(settings, 'CHANNEL_QUEUE_URL'),
      links: mailer.links,
    },
    chain: { getPortfolio: (query, options) => (chain ??= chainFrom(settings, mailer.log)).getPortfolio(query, options) } satisfies ReportDeps['chain'],
  };
  return { ...deps, digest: digestSenderFor(deps) };
}
