import { sendToChannel } from '../../channels/channelSender';
import { channelDefinition, sendsNothing, spacingOf } from '../../channels/channelRegistry';
import { ChannelConfigError } from '../../channels/errors';
import type { ChannelRecord } from '../../domain/channel';
import { destinationOf } from '../../domain/channelDestination';
import { planChannelJob, type LoadedChannelJob, type PlannedSend } from '../../domain/channelJobPlan';
import { backlogEntryOf } from '../../domain/combinedNotice';
import { COMBINE_AFTER_MS } from '../../domain/destinationPacer';
import type { ChannelJob, NoticeJob } from '../../messages/channelJob';
import { sendAll } from '../../queue/sendAll';
import { describeError } from '../../shared/describeError';
import { MAX_DELAY_SECONDS } from '../../queue/messageQueue';
import { IN_PROGRESS_RETRY_S, type ChannelJobDeps, type ChannelJobNext, type ChannelJobOutcome } from './channelJobDeps';
import { done, recordInHistory, requeueAfter, settle, wall } from './channelJobSteps';
import { channelTypeMetric } from './channelTypeMetric';
import { deliverBacklog } from './deliverBacklog';

export { MAX_CHANNEL_ATTEMPTS, MAX_CHANNEL_REQUEUES, type ChannelJobDeps, type ChannelJobOutcome } from './channelJobDeps';

/**
 * Delivers one channel job, shaped load → decide → deliver: reads the job's channel (and for a
 * pager's resolve whether its trigger went there), decides with `planChannelJob` (pure: hold,
 * summary, skip or send), then sends and records. It drops a job whose channel is gone, no longer
 * routed to the account or category, or broken; claims the delivery id (`<notice id>#channel:<name>`) with a
 * conditional write; waits (releases the claim and re-queues with a delay for a reserved slot,
 * never sleeps) when the destination's pacing slot is taken; then renders and sends. A 429 re-queues it after the announced
 * wait; a permanent refusal marks the channel broken and emails the account's recipients once;
 * a 400 about our payload is counted (`ChannelPayloadRejected`) and the channel stays ok; a
 * passing failure, whether the destination answered or not (5xx, any other 4xx, a timeout, TLS, a
 * host that does not resolve, the secret store not answering), is re-queued with backoff
 * (`retryFailure`: a webhook's schedule runs over hours, then marks it broken). Store and queue
 * failures throw (the queue redelivers the job).
 *
 * **Pager incidents.** A PagerDuty trigger accepted is recorded per channel and incident key; a
 * resolve is sent only while its incident is recorded open there (else skipped, counted
 * `PagerDutyResolvesSkipped`), and closes it. A notice that opens or closes no incident (the kill
 * switch's result with every key revoked, an expiry notice) is never queued for a pager; one queued
 * before that ends unclaimed and unrecorded (`not-applicable`), taking no pacing slot.
 *
 * **Chart.** A job carrying the notice's chart (`chartPng`) goes to Telegram as `sendPhoto` (the
 * buttons on the photo) and to Discord as an attached image. When the notice does not fit a photo
 * caption (1,024), the photo carries the title and summary, and a follow-up job (delivery id
 * `…#text`, a second later, paced like any message) sends the full text.
 *
 * **Long waits.** A job received before its `notBefore` (a wait longer than the queue's 15 min:
 * a webhook's retry hours later) goes back on the queue for the rest, at most 15 min, without an
 * attempt counted or the destination called; its channel is read on each hop, so a job whose
 * channel was removed, broken or re-routed meanwhile ends there.
 *
 * **Backlog.** A chat notice that would wait more than `COMBINE_AFTER_MS` is parked in the
 * channel's backlog instead, and the backlog goes as one summary (`deliverBacklog`). Security
 * notices are never parked: they go ahead of the spacing, held only by an announced wait. Reports
 * are never parked either: each waits for its own slot and goes whole.
 *
 * **History.** A notice job's outcome goes into its account's delivery history last
 * (`recordInHistory`), whatever it was.
 */
export async function deliverChannelJob(deps: ChannelJobDeps, job: ChannelJob): Promise<ChannelJobOutcome> {
  const next = await runChannelJob(deps, job);
  const outcome = await settle(deps, next);
  await recordInHistory(deps, job, outcome);
  return outcome;
}

/** Loads, plans and carries out one job; returns what is left to do (a re-queue, a refusal) for `settle`. */
async function runChannelJob(deps: ChannelJobDeps, job: ChannelJob): Promise<ChannelJobNext> {
  const loaded = await loadChannelJob(deps, job);
  const plan = planChannelJob(job, loaded, wall(deps), MAX_DELAY_SECONDS);
  if (plan.kind === 'hold') return { kind: 'hold', job, delaySeconds: plan.delaySeconds };
  if (plan.kind === 'skipped') {
    if (plan.resolveWithoutTrigger) deps.counters.count('PagerDutyResolvesSkipped');
    return done({ kind: 'skipped', reason: plan.reason }, plan.tellBroken);
  }
  if (plan.kind === 'nothing-to-send') return done({ kind: 'not-applicable' });
  // A backlog's summary to a channel removed or broken empties the backlog.
  if (plan.kind === 'summary' && !('notice' in job)) return deliverBacklog(deps, job, loaded.channel, plan.tellBroken);
  if (plan.kind === 'send' && 'notice' in job) return send(deps, job, plan);
  // Not reached: the plan summarises a backlog job and sends a notice job.
  return done({ kind: 'skipped', reason: 'the job is neither a notice nor a backlog' });
}

/** Reads what the job's plan needs: its channel as stored now, its type's limits, and for a pager's resolve whether the trigger went there. */
async function loadChannelJob(deps: ChannelJobDeps, job: ChannelJob): Promise<LoadedChannelJob> {
  const channel = await deps.repos.channels.get(job.channel);
  const limits = channel === null ? null : channelDefinition(channel.type).limits;
  const resolve = 'notice' in job && job.notice.incident?.action === 'resolve' ? job.notice.incident : null;
  const asked = channel !== null && limits?.keepsIncidents === true && resolve !== null;
  return {
    channel,
    spacingMs: channel === null ? 0 : spacingOf(channel),
    keepsIncidents: limits?.keepsIncidents ?? false,
    incidentOpen: asked ? await deps.repos.incidents.isOpen(channel.name, resolve.key) : null,
    sendsNothing: channel !== null && 'notice' in job && sendsNothing(channel, job.notice),
  };
}

/**
 * Sends one notice as planned: claims its delivery id, takes the destination's slot (or waits for
 * one), sends, and records what the destination answered.
 */
async function send(deps: ChannelJobDeps, job: NoticeJob, plan: PlannedSend): Promise<ChannelJobNext> {
  const { channel, deliveryId: id, followUp, incident, destination } = plan;
  const { notice } = job;
  const chart = plan.withChart && job.chartPng !== undefined ? Buffer.from(job.chartPng, 'base64') : null;
  const begun = await deps.repos.deliveries.begin(id, {
    kind: `channel-${channel.type}`,
    account: notice.account.address,
    recipients: [`channel:${channel.name}`],
  });
  if (begun.kind === 'already-sent') return done({ kind: 'duplicate' });
  if (begun.kind === 'in-progress') return requeueAfter(job, IN_PROGRESS_RETRY_S * 1_000, 'another attempt holds the delivery', false);

  // The slot is taken last, right before the send: what reaches the destination keeps the spacing the slots keep.
  const now = wall(deps);
  const paced = plan.reservedSlot
    ? await deps.pacer.takeReserved(destination, now, plan.spacingMs)
    : await deps.pacer.take(destination, plan.spacingMs, now, plan.urgent, plan.urgent ? { id: notice.id, at: notice.at } : undefined);
  if (paced.kind === 'wait') {
    await deps.repos.deliveries.fail(id, 'paced');
    return wait(deps, job, channel, paced.ms, 'paced');
  }

  let outcome;
  try {
    outcome = await sendToChannel(deps.channelSender, channel, notice, id, Math.floor(wall(deps) / 1_000), { chart, part: followUp ? 'follow-up' : 'whole' });
  } catch (error) {
    const reason = describeError(error, { audience: 'log' });
    deps.counters.count(channelTypeMetric('Failures', channel.type));
    await deps.repos.deliveries.fail(id, reason);
    // This process cannot use the channel as configured (a secret unset here, a URL not allowed):
    // the destination refused nothing, so the channel is not marked broken; `channels test` says why.
    if (error instanceof ChannelConfigError && !error.retryable) {
      deps.counters.count('ChannelConfigErrors');
      return done({ kind: 'gave-up', reason });
    }
    // A failure that may pass (a host not resolving, the secret store not answering): recorded and retried
    // as the destination failing is, so a webhook's schedule ends by marking it broken.
    await deps.repos.channels.recordDelivery(channel.name, { at: deps.now(), outcome: 'failed' });
    return { kind: 'retry', job, channel, reason };
  }
  const at = deps.now();
  switch (outcome.kind) {
    case 'delivered':
      if (chart !== null && channelDefinition(channel.type).limits.needsFollowUp(notice)) {
        // The photo's caption held the title and summary only: the full text follows as a message of its own.
        await sendAll(deps.channelQueue, [{ id: 'follow-up', body: { channel: channel.name, notice, attempt: 0, part: 'follow-up' }, delaySeconds: 1 }]);
      }
      await deps.repos.deliveries.complete(id, `channel:${outcome.status}`);
      if (incident?.action === 'trigger') await deps.repos.incidents.opened(channel.name, incident.key, notice.id);
      else if (incident?.action === 'resolve') await deps.repos.incidents.closed(channel.name, incident.key);
      await deps.repos.channels.recordDelivery(channel.name, { at, outcome: 'delivered' });
      deps.counters.count('ChannelDeliveries');
      deps.counters.count(channelTypeMetric('Deliveries', channel.type));
      return done({ kind: 'delivered' });
    case 'not-applicable': {
      // Not reached (the plan ends such a job unclaimed): should a type's request and render ever disagree, the record says nothing went.
      const reason = 'nothing was sent: the channel type has no request for this notice';
      await deps.repos.deliveries.fail(id, reason);
      return done({ kind: 'skipped', reason });
    }
    case 'throttled':
      await deps.repos.deliveries.fail(id, `throttled: ${outcome.retryAfterMs} ms`);
      await deps.pacer.block(destination, outcome.retryAfterMs, wall(deps));
      deps.counters.count('ChannelThrottled');
      return wait(deps, job, channel, outcome.retryAfterMs, `throttled (HTTP ${outcome.status})`);
    case 'migrated':
      await deps.repos.deliveries.fail(id, 'telegram chat migrated');
      await deps.repos.channels.setChatId(channel.name, outcome.chatId);
      return requeueAfter(job, 0, 'telegram chat migrated', false);
    case 'payload-rejected':
      deps.counters.count(channelTypeMetric('Failures', channel.type));
      await deps.repos.deliveries.fail(id, outcome.reason);
      deps.counters.count('ChannelPayloadRejected');
      return done({ kind: 'payload-rejected', reason: outcome.reason });
    case 'refused':
      deps.counters.count(channelTypeMetric('Failures', channel.type));
      await deps.repos.deliveries.fail(id, outcome.reason);
      return { kind: 'refuse', account: notice.account.address, channel, reason: outcome.reason };
    case 'failed':
      deps.counters.count(channelTypeMetric('Failures', channel.type));
      await deps.repos.deliveries.fail(id, outcome.reason);
      await deps.repos.channels.recordDelivery(channel.name, { at, outcome: 'failed' });
      return { kind: 'retry', job, channel, reason: outcome.reason };
  }
}

/**
 * A notice that cannot go now: a security notice waits out the announced wait alone; on a chat
 * whose summary is pending, it is parked to go in it (taking no slot of its own); another
 * reserves the destination's next slot and waits for it, unless that is more than
 * `COMBINE_AFTER_MS` away on a chat, where it is parked for the channel's next summary. A report
 * is never parked: it reserves its slot however far, and goes whole (its table, its chart). Only the
 * summary holds a slot: parked notices reserving slots they never use would push every later
 * send, and the next summary, further out with each notice parked.
 */
async function wait(deps: ChannelJobDeps, job: NoticeJob, channel: ChannelRecord, ms: number, reason: string): Promise<ChannelJobNext> {
  // A photo's follow-up text is never parked either: the summary would skip it (its notice was delivered).
  if (job.notice.category === 'security' || job.part === 'follow-up') return requeueAfter({ ...job, slotAt: undefined }, ms, reason, false);
  const now = wall(deps);
  // A report is never folded into a summary: it is read for its figures and its table, so it waits for a slot of its own.
  const combined = channelDefinition(channel.type).limits.combinesBacklog && job.notice.category !== 'reports';
  // With a summary pending, no slot is reserved: the notice goes in that summary.
  const pending = combined && (await deps.repos.channelBacklog.pending(channel.name));
  const slotMs = pending ? null : await deps.pacer.reserve(destinationOf(channel), spacingOf(channel), now);
  if (slotMs !== null && (slotMs <= COMBINE_AFTER_MS || !combined)) return requeueAfter({ ...job, slotAt: now + slotMs }, slotMs, reason, false);
  return park(deps, job, channel, now, slotMs);
}

/** Parks the notice; the one that finds no summary pending queues it, at `slotMs` (reserved now when not given). */
async function park(deps: ChannelJobDeps, job: NoticeJob, channel: ChannelRecord, now: number, reserved: number | null): Promise<ChannelJobNext> {
  const parked = await deps.repos.channelBacklog.park(channel.name, backlogEntryOf(job.notice));
  deps.counters.count('ChannelNoticesParked');
  if (parked.flush) {
    const slotMs = reserved ?? (await deps.pacer.reserve(destinationOf(channel), spacingOf(channel), now));
    // The summary takes the slot just reserved: what parks until then goes with it.
    await sendAll(deps.channelQueue, [
      {
        id: 'backlog',
        body: { channel: channel.name, backlog: true, attempt: 0, slotAt: now + slotMs },
        delaySeconds: Math.min(900, Math.ceil(slotMs / 1_000)),
      },
    ]);
  }
  return done({ kind: 'parked' });
}
