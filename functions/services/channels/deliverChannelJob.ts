import { sendToChannel, type ChannelSenderDeps } from '../../channels/channelSender';
import { ChannelConfigError } from '../../channels/errors';
import type { ChannelRecord } from '../../domain/channel';
import { channelDeliveryId } from '../../domain/channelRouting';
import type { DestinationPacer } from '../../domain/destinationPacer';
import type { ActionLinks } from '../../links/actionLinks';
import type { ChannelJob } from '../../messages/channelJob';
import { MAX_DELAY_SECONDS, type MessageQueue } from '../../queue/messageQueue';
import { sendAll } from '../../queue/sendAll';
import { describeError } from '../../shared/describeError';
import type { Counters } from '../../shared/observability';
import type { AccountsRepository } from '../../store/accountsRepository';
import type { ChannelsRepository } from '../../store/channelsRepository';
import type { PreferencesRepository } from '../../store/preferencesRepository';
import type { SuppressionRepository } from '../../store/suppressionRepository';
import { deliverToRecipient, type MailDeliveryDeps } from '../delivery/mailDelivery';
import { recipientLinks } from '../delivery/recipientLinks';
import { mailRecipients } from '../delivery/recipients';
import { brokenChannelEmail } from './brokenChannelEmail';

/** What the channel worker needs. */
export interface ChannelJobDeps extends MailDeliveryDeps {
  readonly repos: MailDeliveryDeps['repos'] & {
    readonly channels: Pick<ChannelsRepository, 'get' | 'markBroken' | 'recordDelivery' | 'setChatId'>;
    readonly accounts: Pick<AccountsRepository, 'get'>;
    readonly suppressions: Pick<SuppressionRepository, 'filter'>;
    readonly preferences: Pick<PreferencesRepository, 'filter'>;
  };
  readonly channelSender: ChannelSenderDeps;
  /** Where a throttled, paced or failed job goes back to, with a delay. */
  readonly channelQueue: MessageQueue<ChannelJob>;
  readonly pacer: DestinationPacer;
  readonly links: Pick<ActionLinks, 'build'>;
  readonly counters: Counters;
  readonly now: () => number;
  /**
   * Wall-clock time (the queue's clock locally): pacing, announced waits and the webhook
   * timestamp, which receivers check against their own clock; default `now`.
   */
  readonly wallNow?: () => number;
}

export type ChannelJobOutcome =
  | { kind: 'delivered' }
  /** Delivered before (a redelivered job), or the type sends nothing for this notice. */
  | { kind: 'duplicate' }
  | { kind: 'not-applicable' }
  /** Put back on the queue to be sent after `delaySeconds`. */
  | { kind: 'requeued'; delaySeconds: number; reason: string }
  | { kind: 'skipped'; reason: string }
  /** Refused for good: the channel is broken (`told` recipients were emailed about it now). */
  | { kind: 'refused'; reason: string; told: number }
  /** The destination refused our payload: our bug, counted; the channel stays ok. */
  | { kind: 'payload-rejected'; reason: string }
  /** Passing failures on every attempt up to the limit, or a channel this process cannot use as configured: dropped. */
  | { kind: 'gave-up'; reason: string };

/** Passing failures are retried this many times (backoff 30 s doubling, at most 15 min). */
export const MAX_CHANNEL_ATTEMPTS = 8;
/** Re-queues of any reason (throttling, pacing) after which a job is dropped. */
export const MAX_CHANNEL_REQUEUES = 50;
const IN_PROGRESS_RETRY_S = 30;

/**
 * Delivers one channel job: drops it when the channel is gone, no longer routed to the account
 * or category, or broken; waits (re-queues with a delay, never sleeps) when the destination's
 * pacing slot is taken; claims the delivery id (`<notice id>#channel:<name>`) with a conditional
 * write, then renders and sends. A 429 re-queues it after the announced wait; a permanent
 * refusal marks the channel broken and emails the account's recipients once; a 400 about our
 * payload is counted (`ChannelPayloadRejected`) and the channel stays ok; a passing failure is
 * re-queued with backoff. Store and queue failures throw (the queue redelivers the job).
 */
export async function deliverChannelJob(deps: ChannelJobDeps, job: ChannelJob): Promise<ChannelJobOutcome> {
  const { notice } = job;
  const channel = await deps.repos.channels.get(job.channel);
  if (!channel) return { kind: 'skipped', reason: 'the channel was removed' };
  const account = notice.account.address.toLowerCase();
  if (!channel.accounts.some((a) => a.toLowerCase() === account) || !channel.categories.includes(notice.category)) {
    return { kind: 'skipped', reason: 'the channel is no longer routed this notice' };
  }
  if (channel.state.kind === 'broken') return { kind: 'skipped', reason: 'the channel is broken' };

  const paced = deps.pacer.take(channel.name, channel.type, wall(deps), notice.category === 'security');
  if (paced.kind === 'wait') return requeue(deps, job, paced.ms, 'paced', false);

  const id = channelDeliveryId(notice.id, channel.name);
  const begun = await deps.repos.deliveries.begin(id, { kind: `channel-${channel.type}`, account: notice.account.address, recipients: [`channel:${channel.name}`] });
  if (begun.kind === 'already-sent') return { kind: 'duplicate' };
  if (begun.kind === 'in-progress') return requeue(deps, job, IN_PROGRESS_RETRY_S * 1_000, 'another attempt holds the delivery', false);

  let outcome;
  try {
    outcome = await sendToChannel(deps.channelSender, channel, notice, id, Math.floor(wall(deps) / 1_000));
  } catch (error) {
    const reason = describeError(error, { audience: 'log' });
    await deps.repos.deliveries.fail(id, reason);
    // This process cannot use the channel as configured (a secret unset here, a URL not allowed):
    // the destination refused nothing, so the channel is not marked broken; `channels test` says why.
    if (error instanceof ChannelConfigError && !error.retryable) {
      deps.counters.count('ChannelConfigErrors');
      return { kind: 'gave-up', reason };
    }
    return requeue(deps, job, backoffMs(job.attempt), reason, true);
  }
  const at = deps.now();
  switch (outcome.kind) {
    case 'delivered':
      await deps.repos.deliveries.complete(id, `channel:${outcome.status}`);
      await deps.repos.channels.recordDelivery(channel.name, { at, outcome: 'delivered' });
      deps.counters.count('ChannelDeliveries');
      return { kind: 'delivered' };
    case 'not-applicable':
      await deps.repos.deliveries.complete(id, 'channel:not-applicable');
      return { kind: 'not-applicable' };
    case 'throttled':
      await deps.repos.deliveries.fail(id, `throttled: ${outcome.retryAfterMs} ms`);
      deps.pacer.block(channel.name, outcome.retryAfterMs, wall(deps));
      deps.counters.count('ChannelThrottled');
      return requeue(deps, job, outcome.retryAfterMs, `throttled (HTTP ${outcome.status})`, false);
    case 'migrated':
      await deps.repos.deliveries.fail(id, 'telegram chat migrated');
      await deps.repos.channels.setChatId(channel.name, outcome.chatId);
      return requeue(deps, job, 0, 'telegram chat migrated', false);
    case 'payload-rejected':
      await deps.repos.deliveries.fail(id, outcome.reason);
      deps.counters.count('ChannelPayloadRejected');
      return { kind: 'payload-rejected', reason: outcome.reason };
    case 'refused':
      await deps.repos.deliveries.fail(id, outcome.reason);
      return refuse(deps, job, channel, outcome.reason);
    case 'failed':
      await deps.repos.deliveries.fail(id, outcome.reason);
      await deps.repos.channels.recordDelivery(channel.name, { at, outcome: 'failed' });
      return requeue(deps, job, backoffMs(job.attempt), outcome.reason, true);
  }
}

function wall(deps: ChannelJobDeps): number {
  return (deps.wallNow ?? deps.now)();
}

function backoffMs(attempt: number): number {
  return Math.min(MAX_DELAY_SECONDS * 1_000, 30_000 * 2 ** attempt);
}

async function requeue(deps: ChannelJobDeps, job: ChannelJob, waitMs: number, reason: string, failure: boolean): Promise<ChannelJobOutcome> {
  if (job.attempt + 1 >= MAX_CHANNEL_REQUEUES || (failure && job.attempt + 1 >= MAX_CHANNEL_ATTEMPTS)) {
    deps.counters.count('ChannelDeliveriesAbandoned');
    return { kind: 'gave-up', reason };
  }
  // Rounded up: the job is never received before the announced wait has passed.
  const delaySeconds = Math.min(MAX_DELAY_SECONDS, Math.ceil(waitMs / 1_000));
  await sendAll(deps.channelQueue, [{ id: 'requeue', body: { ...job, attempt: job.attempt + 1 }, delaySeconds }]);
  deps.counters.count('ChannelRequeued');
  return { kind: 'requeued', delaySeconds, reason };
}

/** Marks the channel broken; the one worker that changed its state emails the notice's account's recipients. */
async function refuse(deps: ChannelJobDeps, job: ChannelJob, channel: ChannelRecord, reason: string): Promise<ChannelJobOutcome> {
  const since = deps.now();
  await deps.repos.channels.recordDelivery(channel.name, { at: since, outcome: 'refused' });
  const marked = await deps.repos.channels.markBroken(channel.name, reason, since);
  deps.counters.count('ChannelRefused');
  if (marked.kind === 'unchanged') return { kind: 'refused', reason, told: 0 };
  return { kind: 'refused', reason, told: await tellRecipients(deps, job, channel, reason, since) };
}

async function tellRecipients(deps: ChannelJobDeps, job: ChannelJob, channel: ChannelRecord, reason: string, since: number): Promise<number> {
  const account = await deps.repos.accounts.get(job.notice.account.address);
  if (!account) return 0;
  const recipients = await mailRecipients(deps.repos, account.emails, 'security');
  let told = 0;
  for (const recipient of recipients) {
    const outcome = await deliverToRecipient(deps, {
      eventId: `channel-broken:${channel.name}:${since}`,
      kind: 'channel-broken',
      account: account.address,
      recipient,
      sentAt: since,
      compose: () => {
        const links = recipientLinks(deps.links, account, recipient, since, 'security');
        return { rendered: brokenChannelEmail(channel, reason, account), unsubscribeUrl: links.unsubscribeUrl, oneClickUnsubscribe: links.oneClickUnsubscribe };
      },
    });
    if (outcome.kind === 'sent') told++;
    else if (outcome.kind === 'failed' || outcome.kind === 'retryable') {
      deps.counters.count('ChannelBrokenNoticeFailures');
      deps.log.warn('could not tell a recipient about a broken channel', { channel: channel.name, reason: outcome.reason });
    }
  }
  return told;
}
