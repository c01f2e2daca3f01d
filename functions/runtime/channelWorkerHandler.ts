import { channelJobSchema } from '../messages/channelJob';
import { sqsHandler, type SqsHandlerDeps } from './sqsHandler';
import { deliverChannelJob, type ChannelJobDeps, type ChannelJobOutcome } from '../services/channels/deliverChannelJob';

/** What the channel worker needs: the channel delivery service's ports, plus a metrics flush per invocation. */
export interface ChannelWorkerDeps extends ChannelJobDeps, SqsHandlerDeps {}

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
 * itself succeeds); a store or queue failure lists the record in `batchItemFailures`.
 */
export function createChannelWorkerHandler(deps: ChannelWorkerDeps) {
  return sqsHandler(deps, {
    name: 'channel job',
    schema: channelJobSchema,
    concurrency: 1,
    about: (job) =>
      'notice' in job
        ? { channel: job.channel, noticeId: job.notice.id, category: job.notice.category, attempt: job.attempt }
        : { channel: job.channel, backlog: true, attempt: job.attempt },
    handle: async (job, about) => {
      const outcome = await deliverChannelJob(deps, job);
      deps.counters.count(OUTCOME_METRIC[outcome.kind]);
      if (outcome.kind === 'refused' || outcome.kind === 'payload-rejected' || outcome.kind === 'gave-up')
        deps.log.warn('channel job not delivered', { ...about, outcome });
      else deps.log.info('channel job handled', { ...about, outcome: outcome.kind });
    },
    retry: { metric: 'ChannelJobRetries', level: 'warn', message: 'channel job to be retried' },
  });
}
