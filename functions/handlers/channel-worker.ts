import { channelQueueMessageSchema, fanOutJobAbout, type ChannelJob, type FanOutEvent } from '../messages/channelJob';
import type { NotifyQueueEvent } from '../messages/notifyMessage';
import { AccountHistoryRepository } from '../store/accountHistoryRepository';
import { channelSenderFrom } from '../runtime/channelSenderFrom';
import { someRepositoriesFrom, sqsQueueFrom } from '../runtime/factories';
import { handlerBasics } from '../runtime/handlerBasics';
import { lazyHandler } from '../runtime/lazyHandler';
import { sqsConsumer, type ConsumerDeps } from '../runtime/consumer/sqsConsumer';
import { ChannelBacklogRepository } from '../store/channelBacklogRepository';
import { ChannelsRepository } from '../store/channelsRepository';
import { DeliveryRepository } from '../store/deliveryRepository';
import { PagerIncidentsRepository } from '../store/pagerIncidentsRepository';
import { PaceRepository } from '../store/paceRepository';
import type { MessageQueue } from '../queue/messageQueue';
import { sendAll } from '../queue/sendAll';
import { SharedDestinationPacer } from '../services/channels/sharedDestinationPacer';
import { deliverChannelJob, type ChannelJobDeps, type ChannelJobOutcome } from '../services/channels/deliverChannelJob';

/** What the channel worker needs: the channel delivery service's ports, plus a metrics flush per invocation. */
export interface ChannelWorkerDeps extends ChannelJobDeps, ConsumerDeps {
  /** Where a `fanout` job found on the channel queue is passed on (the fan-out queue, consumed by `channel-fanout`). */
  readonly fanOutQueue: MessageQueue<FanOutEvent>;
}

const OUTCOME_METRIC: Readonly<Record<ChannelJobOutcome['kind'], string>> = {
  delivered: 'ChannelJobsDelivered',
  duplicate: 'ChannelJobDuplicates',
  'not-applicable': 'ChannelJobsNotApplicable',
  requeued: 'ChannelJobsRequeued',
  skipped: 'ChannelJobsSkipped',
  refused: 'ChannelJobsRefused',
  'payload-rejected': 'ChannelJobsPayloadRejected',
  'gave-up': 'ChannelJobsAbandoned',
  parked: 'ChannelJobsParked',
  combined: 'ChannelBacklogsCombined',
};

/**
 * The channel queue's consumer (the `channel-worker` Lambda in AWS; run in process by `collect`,
 * `serve` and `npm start`): each record is one notice for one channel, sent with
 * `deliverChannelJob`. A job to be sent later is re-queued by the service with a delay (the record
 * itself succeeds); a store or queue failure lists the record in `batchItemFailures`. A published
 * event (`fanout` job) put here by a producer older than the fan-out queue is passed on to that
 * queue unchanged (`ChannelFanOutsForwarded`), neither expanded here nor dropped as malformed.
 *
 * The records of a batch run at once (`recordConcurrency`, default the whole batch), on up to
 * `CHANNEL_WORKER_CONCURRENCY` instances: each waits mostly on its destination's answer, so the
 * jobs in flight at once are what delivers a poll's notices (`bench:channels`). Sends to one
 * destination stay paced: every slot is taken from the shared pacer, which no two takers win at
 * once, whatever the instance.
 */
export function createChannelWorkerHandler(deps: ChannelWorkerDeps) {
  return sqsConsumer(deps, {
    name: 'channel job',
    schema: channelQueueMessageSchema,
    about: (job) =>
      'fanout' in job
        ? fanOutJobAbout(job)
        : 'notice' in job
          ? { channel: job.channel, noticeId: job.notice.id, category: job.notice.category, attempt: job.attempt }
          : { channel: job.channel, backlog: true, attempt: job.attempt },
    handle: async (job, about) => {
      if (!('fanout' in job)) {
        const outcome = await deliverChannelJob(deps, job);
        deps.counters.count(OUTCOME_METRIC[outcome.kind]);
        if (outcome.kind === 'refused' || outcome.kind === 'payload-rejected' || outcome.kind === 'gave-up')
          deps.log.warn('channel job not delivered', { ...about, outcome });
        else deps.log.info('channel job handled', { ...about, outcome: outcome.kind });
        return;
      }
      // Mid-deploy only: an event a producer not yet updated published here.
      await sendAll(deps.fanOutQueue, [{ id: job.fanout.eventId, body: job }]);
      deps.counters.count('ChannelFanOutsForwarded');
      deps.log.info('channel fan-out passed on to the fan-out queue', about);
    },
    retry: { metric: 'ChannelJobRetries', level: 'warn', message: 'channel job to be retried' },
  });
}

/**
 * Deps from the Lambda environment (once per cold start): the channels, the channel senders
 * (secrets from Secrets Manager, cached for the instance's life), the channel queue delayed jobs
 * go back to, the destination pacing shared by every instance (items in `channels`, behind this
 * instance's own pacer), the notify queue a broken channel's notice goes to (the notify consumer
 * emails it), and the fan-out queue a stray `fanout` job is passed on to.
 */
export function channelWorkerDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): ChannelWorkerDeps {
  const { settings, ...basics } = handlerBasics('channel-worker', env);
  const repos = someRepositoriesFrom(settings, {
    channels: ChannelsRepository,
    channelBacklog: ChannelBacklogRepository,
    deliveries: DeliveryRepository,
    history: AccountHistoryRepository,
    pace: PaceRepository,
    incidents: PagerIncidentsRepository,
  });
  return {
    ...basics,
    repos,
    channelSender: channelSenderFrom(settings, env),
    channelQueue: sqsQueueFrom<ChannelJob>(settings, 'CHANNEL_QUEUE_URL'),
    pacer: new SharedDestinationPacer(repos.pace),
    notifyQueue: sqsQueueFrom<NotifyQueueEvent>(settings, 'NOTIFY_QUEUE_URL'),
    fanOutQueue: sqsQueueFrom<FanOutEvent>(settings, 'FANOUT_QUEUE_URL'),
  };
}

/** AWS entry point. */
export const handler = lazyHandler(async () => createChannelWorkerHandler(channelWorkerDepsFromEnv()));
