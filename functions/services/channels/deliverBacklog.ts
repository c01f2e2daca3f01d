import { sendToChannel } from '../../channels/channelSender';
import { routesTo, type ChannelRecord } from '../../domain/channel';
import { spacingOf } from '../../channels/channelRegistry';
import { destinationOf } from '../../domain/channelDestination';
import { channelDeliveryId } from '../../domain/channelRouting';
import { combinedNotice, type BacklogEntry } from '../../domain/combinedNotice';
import type { BrokenNoticeToQueue } from '../../domain/channelJobPlan';
import type { BacklogJob } from '../../messages/channelJob';
import { describeError } from '../../shared/describeError';
import { IN_PROGRESS_RETRY_S, type ChannelJobDeps, type ChannelJobNext } from './channelJobDeps';
import { backoffMs, done, requeue, requeueAfter, wall } from './channelJobSteps';
import { channelTypeMetric } from './channelTypeMetric';

/**
 * Sends a channel's backlog (`channel`, as read for the job; null when removed) as one summary message (`combinedNotice`): takes what waits (ending
 * the pending summary, so later notices queue the next), leaves out what the channel no longer
 * routes and what was already sent, claims every carried notice's own delivery id (so a notice
 * is never both in a summary and sent alone, nor in two summaries), then sends. Delivered: the
 * carried notices are complete and leave the backlog. Throttled or failing: they stay parked and
 * the summary is queued again after the wait. A permanent refusal marks the channel broken and
 * drops the backlog, as later jobs to a broken channel are dropped. A backlog meeting its channel
 * broken with the notice of the break not queued yet passes `tellBroken` on, to be queued.
 */
export async function deliverBacklog(
  deps: ChannelJobDeps,
  job: BacklogJob,
  channel: ChannelRecord | null,
  tellBroken?: BrokenNoticeToQueue,
): Promise<ChannelJobNext> {
  const backlog = deps.repos.channelBacklog;
  if (!channel || channel.state.kind === 'broken') {
    await backlog.remove(
      job.channel,
      (await backlog.take(job.channel)).map((e) => e.id),
    );
    return done({ kind: 'skipped', reason: channel ? 'the channel is broken' : 'the channel was removed' }, tellBroken);
  }
  const entries = await backlog.take(channel.name);
  const routed = entries.filter((e) => routesTo(channel, e.account.address, e.category));
  const claimed: BacklogEntry[] = [];
  /** Claimed by another attempt (a summary that stopped midway): kept parked for a later summary. */
  const held: BacklogEntry[] = [];
  for (const entry of routed) {
    const begun = await deps.repos.deliveries.begin(channelDeliveryId(entry.id, channel.name), {
      kind: `channel-${channel.type}`,
      account: entry.account.address,
      recipients: [`channel:${channel.name}`],
    });
    if (begun.kind === 'new') claimed.push(entry);
    else if (begun.kind === 'in-progress') held.push(entry);
  }
  await backlog.remove(
    channel.name,
    entries.filter((e) => !claimed.includes(e) && !held.includes(e)).map((e) => e.id),
  );
  const later = async (): Promise<void> => {
    if (held.length > 0 && (await backlog.mark(channel.name)))
      await requeue(deps, { ...job, slotAt: undefined }, IN_PROGRESS_RETRY_S * 1_000, 'another attempt holds some notices', false);
  };
  if (claimed.length === 0) {
    await later();
    return done({ kind: 'skipped', reason: 'nothing left to combine now' });
  }

  const notice = combinedNotice(channel.name, claimed, deps.now());
  const ids = claimed.map((e) => channelDeliveryId(e.id, channel.name));
  const failAll = (reason: string) => Promise.all(ids.map((id) => deps.repos.deliveries.fail(id, reason)));
  /** A failure that ends these notices: counted, their deliveries failed, and they leave the backlog. */
  const dropClaimed = async (reason: string): Promise<void> => {
    deps.counters.count(channelTypeMetric('Failures', channel.type));
    await failAll(reason);
    await backlog.remove(
      channel.name,
      claimed.map((e) => e.id),
    );
  };
  const again = async (waitMs: number, reason: string, failure: boolean): Promise<ChannelJobNext> => {
    await failAll(reason);
    // Still parked: the summary goes later, with whatever parks meanwhile.
    if (!(await backlog.mark(channel.name))) return done({ kind: 'skipped', reason: 'another summary is pending' });
    return requeueAfter({ ...job, slotAt: wall(deps) + waitMs }, waitMs, reason, failure);
  };
  // The slot is taken last, right before the send (as for a single notice).
  const paced = await deps.pacer.takeReserved(destinationOf(channel), wall(deps), spacingOf(channel));
  if (paced.kind === 'wait') return again(paced.ms, 'paced', false);
  let outcome;
  try {
    outcome = await sendToChannel(deps.channelSender, channel, notice, notice.id, Math.floor(wall(deps) / 1_000));
  } catch (error) {
    deps.counters.count(channelTypeMetric('Failures', channel.type));
    return again(backoffMs(job.attempt), describeError(error, { audience: 'log' }), true);
  }
  switch (outcome.kind) {
    case 'delivered':
    case 'not-applicable':
      await Promise.all(ids.map((id) => deps.repos.deliveries.complete(id, `channel:combined:${outcome.kind === 'delivered' ? outcome.status : 'n/a'}`)));
      await backlog.remove(
        channel.name,
        claimed.map((e) => e.id),
      );
      await deps.repos.channels.recordDelivery(channel.name, { at: deps.now(), outcome: 'delivered' });
      deps.counters.count('ChannelDeliveries');
      deps.counters.count(channelTypeMetric('Deliveries', channel.type));
      deps.counters.count('ChannelNoticesCombined', claimed.length);
      await later();
      return done({ kind: 'combined', notices: claimed.length });
    case 'throttled':
      await deps.pacer.block(destinationOf(channel), outcome.retryAfterMs, wall(deps));
      deps.counters.count('ChannelThrottled');
      return again(outcome.retryAfterMs, `throttled (HTTP ${outcome.status})`, false);
    case 'migrated':
      await deps.repos.channels.setChatId(channel.name, outcome.chatId);
      return again(0, 'telegram chat migrated', false);
    case 'failed':
      deps.counters.count(channelTypeMetric('Failures', channel.type));
      return again(backoffMs(job.attempt), outcome.reason, true);
    case 'payload-rejected':
      await dropClaimed(outcome.reason);
      deps.counters.count('ChannelPayloadRejected');
      return done({ kind: 'payload-rejected', reason: outcome.reason });
    case 'refused':
      await dropClaimed(outcome.reason);
      return { kind: 'refuse', account: notice.account.address, channel, reason: outcome.reason };
  }
}
