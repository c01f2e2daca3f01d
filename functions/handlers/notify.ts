import { settingsFor } from '../config/settings';
import { AccountHistoryRepository } from '../store/accountHistoryRepository';
import type { ChannelJob } from '../messages/channelJob';
import { notifyQueueMessageSchema } from '../messages/notifyMessage';
import { sqsQueueFrom } from '../runtime/factories';
import { lazyHandler } from '../runtime/lazyHandler';
import { mailerDepsFromEnv } from '../runtime/mailerDepsFromEnv';
import { sqsConsumer, type ConsumerDeps } from '../runtime/consumer/sqsConsumer';
import { consumerQueue } from '../runtime/consumer/consumerQueue';
import { AccountsRepository } from '../store/accountsRepository';
import { AlertStateRepository } from '../store/alertStateRepository';
import { ChannelsRepository } from '../store/channelsRepository';
import { CachedChannelList } from '../store/cachedChannelList';
import { OnboardingBatchRepository } from '../store/onboardingBatchRepository';
import { OnboardingProgressRepository } from '../store/onboardingProgressRepository';
import { CurvesRepository } from '../store/curvesRepository';
import { DelegateViewRepository } from '../store/delegateViewRepository';
import { DeliveryRepository } from '../store/deliveryRepository';
import { DeskOperatorsRepository } from '../store/deskOperatorsRepository';
import { PreferencesRepository } from '../store/preferencesRepository';
import { SuppressionRepository } from '../store/suppressionRepository';
import { deliverNotification, type NotificationOutcome } from '../services/notify/deliverNotification';
import { deliverOnboardingNotice, type OnboardingNoticeDeps } from '../services/notify/deliverOnboardingNotice';
import { deliverChannelBrokenNotice } from '../services/notify/deliverChannelBrokenNotice';

/** What the notify handler needs: the delivery service's ports, plus a metrics flush per invocation. */
export interface NotifyDeps extends OnboardingNoticeDeps, ConsumerDeps {}

const OUTCOME_METRIC: Readonly<Record<NotificationOutcome['kind'], string>> = {
  sent: 'NotificationsSent',
  duplicate: 'NotificationDuplicates',
  skipped: 'NotificationsSkipped',
  failed: 'NotificationFailures',
};

/**
 * The notify queue's consumer: each record is one notify message, sent with
 * `deliverNotification` (an onboarding check with `deliverOnboardingNotice`, a channel the channel
 * worker marked broken with `deliverChannelBrokenNotice`), one after the other. A record that failed for a passing reason, or that
 * the invocation's deadline left unstarted, is listed in `batchItemFailures` (SQS redelivers it
 * after the visibility timeout, and dead-letters it after the queue's receive limit); the others
 * of the batch are unaffected. A malformed record can never succeed: it is logged (reason only,
 * never the body) and counted, not retried.
 */
export function createNotifyHandler(deps: NotifyDeps) {
  return sqsConsumer(deps, {
    name: 'notify message',
    schema: notifyQueueMessageSchema,
    concurrency: 1,
    about: (message) => ({ eventId: message.eventId, kind: message.kind, account: message.account }),
    handle: async (message, about) => {
      const outcome =
        message.kind === 'onboarding-check'
          ? await deliverOnboardingNotice(deps, message)
          : message.kind === 'channel-broken'
            ? await deliverChannelBrokenNotice(deps, message)
            : await deliverNotification(deps, message);
      deps.counters.count(OUTCOME_METRIC[outcome.kind]);
      if (outcome.kind === 'failed') deps.log.error('notification refused for good', { ...about, reason: outcome.reason });
      else deps.log.info('notification handled', { ...about, outcome });
    },
    retry: { metric: 'NotificationRetries', level: 'warn', message: 'notification to be retried' },
    queue: consumerQueue('notify'),
  });
}

/**
 * Builds the handler's dependencies from the environment (once per cold start), with the templates
 * precompiled into the bundle, and the channel queue (`CHANNEL_QUEUE_URL`) for the onboarding
 * check's channel notice. The notify messages' own channel jobs come from their `fanout` jobs,
 * expanded by `channel-fanout`.
 */
export async function notifyDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): Promise<NotifyDeps> {
  const settings = settingsFor('notify', env);
  const deps = await mailerDepsFromEnv('notify', env, {
    accounts: AccountsRepository,
    alerts: AlertStateRepository,
    channels: ChannelsRepository,
    curves: CurvesRepository,
    delegates: DelegateViewRepository,
    deliveries: DeliveryRepository,
    deskOperators: DeskOperatorsRepository,
    history: AccountHistoryRepository,
    onboardingBatches: OnboardingBatchRepository,
    onboardingProgress: OnboardingProgressRepository,
    preferences: PreferencesRepository,
    suppressions: SuppressionRepository,
  });
  return {
    ...deps,
    channelFanOut: {
      channels: new CachedChannelList(deps.repos.channels, settings.CHANNEL_LIST_CACHE_SECONDS * 1_000, deps.now),
      alerts: deps.repos.alerts,
      channelQueue: sqsQueueFrom<ChannelJob>(settings, 'CHANNEL_QUEUE_URL'),
      links: deps.links,
    },
    operatorEmail: settings.OPERATOR_EMAIL ?? null,
  };
}

/** AWS entry point. */
export const handler = lazyHandler(async () => createNotifyHandler(await notifyDepsFromEnv()));
