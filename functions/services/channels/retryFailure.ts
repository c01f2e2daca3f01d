import { channelDefinition } from '../../channels/channelRegistry';
import type { ChannelRecord } from '../../domain/channel';
import { webhookExhaustedReason, webhookRetryAfter } from '../../domain/webhookRetrySchedule';
import type { NoticeJob } from '../../messages/channelJob';
import type { ChannelJobDeps, ChannelJobOutcome } from './channelJobDeps';
import { backoffMs, refuse, requeue, wall } from './channelJobSteps';

/**
 * A notice whose destination failed, or could not be reached, in a way that may pass: a 5xx, a
 * webhook's 4xx other than 410 and 429, a timeout, a TLS failure, a host that does not resolve,
 * the secret store not answering. A webhook follows its retry schedule over hours
 * (`WEBHOOK_RETRY_DELAYS_MS`, as Standard Webhooks senders do), and when the schedule is spent,
 * whatever the failures were, the channel is marked broken (`refuse`: its recipients are told
 * once). Other types back off 30 s doubling to 15 min and are dropped after `MAX_CHANNEL_ATTEMPTS`.
 */
export async function retryFailure(deps: ChannelJobDeps, job: NoticeJob, channel: ChannelRecord, reason: string): Promise<ChannelJobOutcome> {
  if (channelDefinition(channel.type).limits.retry === 'backoff') return requeue(deps, job, backoffMs(job.attempt), reason, true);
  const now = wall(deps);
  const failures = (job.failures ?? 0) + 1;
  const failingSince = job.failingSince ?? now;
  const next = webhookRetryAfter(failures);
  if (next.kind === 'exhausted') {
    deps.counters.count('WebhookRetriesExhausted');
    return refuse(deps, job.notice.account.address, channel, webhookExhaustedReason(now - failingSince, failures, reason));
  }
  // The schedule counts the failures; `attempt` keeps counting every re-queue.
  return requeue(deps, { ...job, failures, failingSince }, next.delayMs, reason, false);
}
