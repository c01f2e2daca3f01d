import { fanOutJobAbout, fanOutQueueJobSchema, type ChannelJob } from '../messages/channelJob';
import { someRepositoriesFrom, sqsQueueFrom } from '../runtime/factories';
import { handlerBasics } from '../runtime/handlerBasics';
import { lazyHandler } from '../runtime/lazyHandler';
import { sqsConsumer, type ConsumerDeps } from '../runtime/consumer/sqsConsumer';
import { linkMinterFrom } from '../runtime/linkMinterFrom';
import { HANDLER_CATALOG } from '../config/handlerCatalog';
import { AccountsRepository } from '../store/accountsRepository';
import { AlertStateRepository } from '../store/alertStateRepository';
import { CachedChannelList } from '../store/cachedChannelList';
import { ChannelsRepository } from '../store/channelsRepository';
import { CurvesRepository } from '../store/curvesRepository';
import { DelegateViewRepository } from '../store/delegateViewRepository';
import { fanOutEvent, type FanOutEventDeps } from '../services/notify/fanOutEvent';
import { fanOutReport } from '../services/notify/fanOutReport';

/** What the fan-out consumer needs: the fan-out's ports (an event's and a report's), plus a metrics flush per invocation. */
export interface ChannelFanoutDeps extends FanOutEventDeps, ConsumerDeps {}

/**
 * The fan-out queue's consumer (the `channel-fanout` Lambda in AWS; run in process by `collect`,
 * `serve`, `report` and `npm start`): each record is one published notify event (`fanout` job),
 * expanded with `fanOutEvent`, or one account report's chat notice (`report` job, from the report
 * worker), routed with `fanOutReport`: one job per channel taking it, queued on the channel queue
 * for the channel worker. A store or queue failure lists the record in `batchItemFailures`; the
 * redelivered record queues its jobs again, and the per-(event or report, channel) delivery ids
 * send nothing twice. A malformed record is dropped, its first issue logged.
 */
export function createChannelFanoutHandler(deps: ChannelFanoutDeps) {
  return sqsConsumer(deps, {
    name: 'channel fan-out',
    schema: fanOutQueueJobSchema,
    about: (job) => ('fanout' in job ? fanOutJobAbout(job) : { report: true, noticeId: job.report.notice.id, account: job.report.notice.account.address }),
    handle: async (job, about) => {
      if (!('fanout' in job)) {
        // Its jobs are counted `ReportChannelJobs`.
        deps.log.info('report fan-out handled', { ...about, outcome: await fanOutReport(deps, job.report) });
        return;
      }
      const fanned = await fanOutEvent(deps, job.fanout);
      deps.counters.count(fanned.kind === 'queued' ? 'ChannelEventsFannedOut' : 'ChannelEventsSkipped');
      deps.log.info('channel fan-out handled', { ...about, outcome: fanned });
    },
    retry: { metric: 'ChannelFanOutRetries', level: 'warn', message: 'channel fan-out to be retried' },
  });
}

/** The tables the fan-out reads: an account, its curve and delegates, its channel controls, its channels. */
const FANOUT_REPOSITORIES = {
  accounts: AccountsRepository,
  alerts: AlertStateRepository,
  channels: ChannelsRepository,
  curves: CurvesRepository,
  delegates: DelegateViewRepository,
} as const;

/**
 * Deps from the Lambda environment (once per cold start): what expanding a published event or
 * routing a report reads (the account, its curve for the chart, its delegates, its channel
 * controls, the channel list cached for `CHANNEL_LIST_CACHE_SECONDS`), the link keys its notices
 * carry, and the channel queue the jobs go to.
 */
export async function channelFanoutDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): Promise<ChannelFanoutDeps> {
  const { settings, ...basics } = handlerBasics('channel-fanout', env);
  const repos = someRepositoriesFrom(settings, FANOUT_REPOSITORIES);
  return {
    ...basics,
    repos,
    channels: new CachedChannelList(repos.channels, settings.CHANNEL_LIST_CACHE_SECONDS * 1_000, basics.now),
    alerts: repos.alerts,
    channelQueue: sqsQueueFrom<ChannelJob>(settings, 'CHANNEL_QUEUE_URL'),
    links: await linkMinterFrom(settings, HANDLER_CATALOG['channel-fanout'].requires.links.mints),
  };
}

/** AWS entry point. */
export const handler = lazyHandler(async () => createChannelFanoutHandler(await channelFanoutDepsFromEnv()));
