import { channelQueueMessageSchema } from '../messages/channelJob';
import { parallelSqsHandler, type ParallelSqsHandlerDeps } from './parallelSqsHandler';
import { deliverChannelJob, type ChannelJobDeps, type ChannelJobOutcome } from '../services/channels/deliverChannelJob';
import { fanOutEvent, type FanOutEventDeps } from '../services/notify/fanOutEvent';

/** What the channel worker needs: the channel delivery service's ports, the fan-out's, plus a metrics flush per invocation. */
export interface ChannelWorkerDeps extends ChannelJobDeps, ParallelSqsHandlerDeps {
  /** Expands a published notify event (`fanout` job) into one job per channel taking it. */
  readonly fanOut: FanOutEventDeps;
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
 * `deliverChannelJob`, or a published notify event (`fanout`), expanded into those jobs with
 * `fanOutEvent` apart from the event's paced emails. A job to be sent later is re-queued by the service with a delay (the record
 * itself succeeds); a store or queue failure lists the record in `batchItemFailures`.
 *
 * The records of a batch run at once (`recordConcurrency`, default the whole batch): each waits
 * mostly on its destination's answer; worked one after another, 2 instances took 25 s for 100
 * accounts' Slack and webhook notices (`bench:channels` with request times), 4 minutes at 1,000. Sends to
 * one destination stay paced: every slot is taken from the shared pacer, which no two takers win
 * at once, whether in one instance or two.
 */
export function createChannelWorkerHandler(deps: ChannelWorkerDeps) {
  return parallelSqsHandler(deps, {
    name: 'channel job',
    schema: channelQueueMessageSchema,
    about: (job) =>
      'fanout' in job
        ? { fanout: true, eventId: job.fanout.eventId, kind: job.fanout.kind, account: job.fanout.account }
        : 'notice' in job
          ? { channel: job.channel, noticeId: job.notice.id, category: job.notice.category, attempt: job.attempt }
          : { channel: job.channel, backlog: true, attempt: job.attempt },
    handle: async (job, about) => {
      if ('fanout' in job) {
        const fanned = await fanOutEvent(deps.fanOut, job.fanout);
        deps.counters.count(fanned.kind === 'queued' ? 'ChannelEventsFannedOut' : 'ChannelEventsSkipped');
        deps.log.info('channel fan-out handled', { ...about, outcome: fanned });
        return;
      }
      const outcome = await deliverChannelJob(deps, job);
      deps.counters.count(OUTCOME_METRIC[outcome.kind]);
      if (outcome.kind === 'refused' || outcome.kind === 'payload-rejected' || outcome.kind === 'gave-up')
        deps.log.warn('channel job not delivered', { ...about, outcome });
      else deps.log.info('channel job handled', { ...about, outcome: outcome.kind });
    },
    retry: { metric: 'ChannelJobRetries', level: 'warn', message: 'channel job to be retried' },
  });
}
