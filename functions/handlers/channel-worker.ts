import type { ChannelJob } from '../messages/channelJob';
import { channelSenderFrom } from '../runtime/channelSenderFrom';
import { createChannelWorkerHandler, type ChannelWorkerDeps } from '../runtime/channelWorkerHandler';
import { sesSenderFrom, someRepositoriesFrom, sqsQueueFrom } from '../runtime/factories';
import { handlerBasics } from '../runtime/handlerBasics';
import { lazyHandler } from '../runtime/lazyHandler';
import { linkMinterFrom } from '../runtime/linkMinterFrom';
import { HANDLER_CATALOG } from '../config/handlerCatalog';
import { AccountsRepository } from '../store/accountsRepository';
import { ChannelBacklogRepository } from '../store/channelBacklogRepository';
import { ChannelsRepository } from '../store/channelsRepository';
import { DeliveryRepository } from '../store/deliveryRepository';
import { PreferencesRepository } from '../store/preferencesRepository';
import { SuppressionRepository } from '../store/suppressionRepository';
import { PagerIncidentsRepository } from '../store/pagerIncidentsRepository';
import { PaceRepository } from '../store/paceRepository';
import { AlertStateRepository } from '../store/alertStateRepository';
import { CurvesRepository } from '../store/curvesRepository';
import { DelegateViewRepository } from '../store/delegateViewRepository';
import { CachedChannelList } from '../store/cachedChannelList';
import { SharedDestinationPacer } from '../services/channels/sharedDestinationPacer';

/**
 * Deps from the Lambda environment (once per cold start): the channels and the tables the
 * broken-channel email reads, what expanding a published event reads (the account, its curve for
 * the chart, its delegates, its channel controls, the channel list cached for
 * `CHANNEL_LIST_CACHE_SECONDS`) and the link keys its notices carry, the channel senders (secrets from Secrets Manager, cached for the
 * instance's life), the channel queue delayed jobs go back to, the destination pacing shared by
 * every instance (items in `channels`, behind this instance's own pacer),
 * and SES for the broken-channel email (a few short emails, once per broken channel: sent without
 * the mail-rate governor).
 */
export async function channelWorkerDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): Promise<ChannelWorkerDeps> {
  const { settings, ...basics } = handlerBasics('channel-worker', env);
  const repos = someRepositoriesFrom(settings, {
    channels: ChannelsRepository,
    channelBacklog: ChannelBacklogRepository,
    accounts: AccountsRepository,
    suppressions: SuppressionRepository,
    preferences: PreferencesRepository,
    deliveries: DeliveryRepository,
    pace: PaceRepository,
    incidents: PagerIncidentsRepository,
    alerts: AlertStateRepository,
    curves: CurvesRepository,
    delegates: DelegateViewRepository,
  });
  const channelQueue = sqsQueueFrom<ChannelJob>(settings, 'CHANNEL_QUEUE_URL');
  const links = await linkMinterFrom(settings, HANDLER_CATALOG['channel-worker'].requires.links.mints);
  return {
    ...basics,
    repos,
    channelSender: channelSenderFrom(settings, env),
    channelQueue,
    pacer: new SharedDestinationPacer(repos.pace),
    links,
    fanOut: {
      repos,
      channels: new CachedChannelList(repos.channels, settings.CHANNEL_LIST_CACHE_SECONDS * 1_000, basics.now),
      alerts: repos.alerts,
      channelQueue,
      links,
      counters: basics.counters,
      now: basics.now,
    },
    sender: sesSenderFrom(settings),
    mailFrom: settings.MAIL_FROM,
  };
}

/** AWS entry point: the channel queue's consumer (`createChannelWorkerHandler`). */
export const handler = lazyHandler(async () => createChannelWorkerHandler(await channelWorkerDepsFromEnv()));
