import { channelDefinition } from '../../channels/channelRegistry';
import type { ChannelRecord } from '../../domain/channel';
import { webhookExhaustedReason, webhookRetryAfter } from '../../domain/webhookRetrySchedule';
import { queuedWait, type BrokenNoticeToQueue } from '../../domain/channelJobPlan';
import type { ChannelJob, NoticeJob } from '../../messages/channelJob';
import type { DeliveryHistoryEntry } from '../../domain/deliveryHistoryEntry';
import { withoutUrls } from '../../shared/withoutUrls';
import { MAX_DELAY_SECONDS } from '../../queue/messageQueue';
import { sendAll } from '../../queue/sendAll';
import { channelBrokenEventId } from '../../notices/channelBrokenPresenter';
import { MAX_CHANNEL_ATTEMPTS, MAX_CHANNEL_REQUEUES, type ChannelJobDeps, type ChannelJobNext, type ChannelJobOutcome } from './channelJobDeps';

/** A job's delivery that ends with `outcome`, nothing more to do but queue its broken channel's notice when `tellBroken` says so. */
export function done(outcome: ChannelJobOutcome, tellBroken?: BrokenNoticeToQueue): ChannelJobNext {
  return tellBroken ? { kind: 'done', outcome, tellBroken } : { kind: 'done', outcome };
}

/** A job's delivery that puts `job` back on the queue after `waitMs` (`failure`: counted against its attempts). */
export function requeueAfter(job: ChannelJob, waitMs: number, reason: string, failure: boolean): ChannelJobNext {
  return { kind: 'requeue', job, waitMs, reason, failure };
}

/** Carries out what a job's delivery left to be done, and returns how the job ended. */
export async function settle(deps: ChannelJobDeps, next: ChannelJobNext): Promise<ChannelJobOutcome> {
  switch (next.kind) {
    case 'requeue':
      return requeue(deps, next.job, next.waitMs, next.reason, next.failure);
    case 'retry':
      return retryFailure(deps, next.job, next.channel, next.reason);
    case 'refuse':
      return refuse(deps, next.account, next.channel, next.reason);
    case 'hold':
      await sendAll(deps.channelQueue, [{ id: 'held', body: next.job, delaySeconds: next.delaySeconds }]);
      deps.counters.count('ChannelJobsHeldBack');
      return { kind: 'requeued', delaySeconds: next.delaySeconds, reason: 'held until its retry time' };
    case 'done':
      if (next.tellBroken) await tellBroken(deps, next.tellBroken);
      return next.outcome;
  }
}

/**
 * Records a notice job's outcome in its account's delivery history (`channelDeliveryEntry`): nothing
 * for a backlog's summary, nor for an outcome with nothing new to tell.
 */
export async function recordInHistory(deps: ChannelJobDeps, job: ChannelJob, outcome: ChannelJobOutcome): Promise<void> {
  if (!('notice' in job)) return;
  const entry = channelDeliveryEntry(job, outcome, deps.now());
  if (entry) await deps.repos.history.recordDelivery(job.notice.account.address, entry);
}

/** The wall clock of pacing and announced waits. */
export function wall(deps: ChannelJobDeps): number {
  return (deps.wallNow ?? deps.now)();
}

/** The wait before retrying a passing failure: 30 s doubling, at most 15 min. */
export function backoffMs(attempt: number): number {
  return Math.min(MAX_DELAY_SECONDS * 1_000, 30_000 * 2 ** attempt);
}

/**
 * Puts the job back on the queue after `waitMs` (rounded up; past the queue's 15 min, held with
 * `notBefore`), or gives up past the attempt limits.
 */
export async function requeue(deps: ChannelJobDeps, job: ChannelJob, waitMs: number, reason: string, failure: boolean): Promise<ChannelJobOutcome> {
  // A security notice waiting for its turn is never dropped: only failures count against it.
  const security = 'notice' in job && job.notice.category === 'security';
  if ((job.attempt + 1 >= MAX_CHANNEL_REQUEUES && !security) || (failure && job.attempt + 1 >= MAX_CHANNEL_ATTEMPTS)) {
    deps.counters.count('ChannelDeliveriesAbandoned');
    return { kind: 'gave-up', reason };
  }
  // Rounded up: the job is never received before the announced wait has passed.
  const { delaySeconds, notBefore } = queuedWait(waitMs, wall(deps), MAX_DELAY_SECONDS);
  await sendAll(deps.channelQueue, [{ id: 'requeue', body: { ...job, attempt: job.attempt + 1, notBefore }, delaySeconds }]);
  deps.counters.count('ChannelRequeued');
  return { kind: 'requeued', delaySeconds, reason };
}

/**
 * A notice whose destination failed, or could not be reached, in a way that may pass: a 5xx, a
 * webhook's 4xx other than 410 and 429, a timeout, a TLS failure, a host that does not resolve,
 * the secret store not answering. A webhook follows its retry schedule over hours
 * (`WEBHOOK_RETRY_DELAYS_MS`, as Standard Webhooks senders do), and when the schedule is spent,
 * whatever the failures were, the channel is marked broken (`refuse`: its recipients are told
 * once). Other types back off 30 s doubling to 15 min and are dropped after `MAX_CHANNEL_ATTEMPTS`.
 */
async function retryFailure(deps: ChannelJobDeps, job: NoticeJob, channel: ChannelRecord, reason: string): Promise<ChannelJobOutcome> {
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

/**
 * Marks the channel broken, owing the account's recipients its notice; the one worker that changed
 * its state queues the notice (`tellBroken`). Should the queue or the record of it fail, the job is
 * redelivered and, like any later job to the channel, finds the notice owed and queues it then.
 */
async function refuse(deps: ChannelJobDeps, account: string, channel: ChannelRecord, reason: string): Promise<ChannelJobOutcome> {
  const since = deps.now();
  await deps.repos.channels.recordDelivery(channel.name, { at: since, outcome: 'refused' });
  const marked = await deps.repos.channels.markBroken(channel.name, reason, since, account);
  deps.counters.count('ChannelRefused');
  if (marked.kind === 'unchanged') return { kind: 'refused', reason, told: false };
  await tellBroken(deps, { channel: { name: channel.name, type: channel.type }, account, reason, since });
  return { kind: 'refused', reason, told: true };
}

/**
 * Queues a broken channel's notice on the notify queue (`channel-broken:<name>:<since>`, whose
 * consumer emails the account's recipients once each, however often it is queued), then records it
 * queued in the channel's state.
 */
async function tellBroken(deps: ChannelJobDeps, told: BrokenNoticeToQueue): Promise<void> {
  const eventId = channelBrokenEventId(told.channel.name, told.since);
  const notice = { kind: 'channel-broken', eventId, account: told.account, at: told.since, channel: told.channel, reason: told.reason } as const;
  await sendAll(deps.notifyQueue, [{ id: 'channel-broken', body: notice }]);
  await deps.repos.channels.markNoticeQueued(told.channel.name, told.since, deps.now());
}

/** A reason as the history shows it: no URL, at most 200 characters. */
function plain(reason: string): string {
  const text = withoutUrls(reason);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/**
 * The account's delivery-history entry of one notice to one channel (by its name, never its URL or
 * token) and how the job ended: sent; failed for good and why (refused, the payload rejected,
 * given up); suppressed and why (the channel removed, broken, no longer routed); waiting (a later
 * slot, a retry, the channel's next summary). `null` when there is nothing new to tell (a
 * duplicate, a notice the channel's type does not take, a backlog's summary).
 */
function channelDeliveryEntry(job: NoticeJob, outcome: ChannelJobOutcome, at: number): DeliveryHistoryEntry | null {
  const base = { via: 'channel', to: job.channel, what: job.notice.type, at, eventId: job.notice.id.slice(0, 400) } as const;
  switch (outcome.kind) {
    case 'delivered':
      return { ...base, outcome: 'sent', reason: null };
    case 'refused':
      return { ...base, outcome: 'failed', reason: plain(`the channel refused it and is marked broken: ${outcome.reason}`) };
    case 'payload-rejected':
      return { ...base, outcome: 'failed', reason: plain(`the destination rejected the message: ${outcome.reason}`) };
    case 'gave-up':
      return { ...base, outcome: 'failed', reason: plain(`given up: ${outcome.reason}`) };
    case 'skipped':
      return { ...base, outcome: 'suppressed', reason: plain(outcome.reason) };
    case 'requeued':
      return { ...base, outcome: 'retrying', reason: plain(`tried again in ${outcome.delaySeconds} s: ${outcome.reason}`) };
    case 'parked':
      return { ...base, outcome: 'held', reason: "waiting for the channel's next summary" };
    case 'duplicate':
    case 'not-applicable':
    case 'combined':
      return null;
  }
}
