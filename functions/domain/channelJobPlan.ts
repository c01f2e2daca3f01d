import { routesTo, type ChannelRecord, type ChannelType } from './channel';
import { destinationOf } from './channelDestination';
import { channelDeliveryId } from './channelRouting';
import type { MailCategory } from './mailCategory';
import type { Notice } from './notice';

/** The delivery id suffix of a photo's follow-up text. */
const FOLLOW_UP_SUFFIX = '#text';

/** What the plan reads of a channel job (a notice job, or a backlog's summary job). */
export interface PlannedJob {
  readonly notBefore?: number | undefined;
  readonly slotAt?: number | undefined;
  readonly notice?: Pick<Notice, 'id' | 'category' | 'incident'> & { readonly account: { readonly address: string } };
  readonly chartPng?: string | undefined;
  readonly part?: 'follow-up' | undefined;
}

/** What was loaded for the job: its channel as stored now, and what its type's limits say. */
export interface LoadedChannelJob {
  /** Null when the channel was removed. */
  readonly channel: ChannelRecord | null;
  /** The least spacing between two sends to the channel's destination (ms). */
  readonly spacingMs: number;
  /** Whether the type keeps pager incidents (a resolve goes only where the trigger went). */
  readonly keepsIncidents: boolean;
  /** Whether the channel was sent the trigger of the notice's incident; read only for a resolve to a type that keeps incidents. */
  readonly incidentOpen: boolean | null;
  /** Whether the channel's type has nothing to send for the notice (a pager and a notice that opens or closes no incident). */
  readonly sendsNothing: boolean;
}

/** The send a plan asks for. */
export interface PlannedSend {
  readonly kind: 'send';
  readonly channel: ChannelRecord;
  /** `<notice id>#channel:<name>`, with `#text` for a photo's follow-up. */
  readonly deliveryId: string;
  readonly followUp: boolean;
  /** Whether the job's chart goes with this send (never with a follow-up). */
  readonly withChart: boolean;
  /** The pager incident this send opens or closes (types that keep incidents). */
  readonly incident: Notice['incident'];
  /** A security notice: goes ahead of reserved slots, held only by the spacing and an announced wait. */
  readonly urgent: boolean;
  /** The job reserved its slot and the slot has come: taken as reserved. */
  readonly reservedSlot: boolean;
  readonly destination: string;
  readonly spacingMs: number;
}

/** A broken channel's notice to put on the notify queue: the `channel-broken` message's parts. */
export interface BrokenNoticeToQueue {
  readonly channel: { readonly name: string; readonly type: ChannelType };
  /** Whose security recipients are emailed. */
  readonly account: string;
  readonly reason: string;
  /** When the channel was marked broken: with its name, the notice's event id. */
  readonly since: number;
}

export type ChannelJobPlan =
  /** Back on the queue for the rest of its `notBefore` wait, the destination not called. */
  | { readonly kind: 'hold'; readonly delaySeconds: number }
  /**
   * A backlog's summary job (its channel may be gone or broken: the backlog is then emptied);
   * `tellBroken`: its broken channel's notice was not queued yet, and is queued now.
   */
  | { readonly kind: 'summary'; readonly tellBroken?: BrokenNoticeToQueue }
  /** Dropped: the channel was removed, is broken, or no longer takes the notice (`tellBroken` as for a summary). */
  | { readonly kind: 'skipped'; readonly reason: string; readonly resolveWithoutTrigger?: true; readonly tellBroken?: BrokenNoticeToQueue }
  /** The channel's type has nothing to send for the notice: nothing is claimed, sent or recorded. */
  | { readonly kind: 'nothing-to-send' }
  | PlannedSend;

/**
 * What a channel job received at `now` does, from what was loaded for it (one pure decision, before
 * any write): held back while its `notBefore` is ahead (only while its channel still takes it);
 * a backlog job goes to its summary; a notice job is skipped when its channel was removed, no
 * longer routes the account or category, is broken, or is a pager told to resolve an incident it
 * was sent no trigger for; it ends there, unrecorded, when the channel's type has nothing to send
 * for it (a job queued before the fan-out left such channels out); otherwise it is sent under its
 * delivery id, taking a reserved slot when it reserved one that has come, else the destination's
 * next (`urgent` for security notices). A job
 * meeting its channel broken with the notice of the break not queued yet (the worker that marked
 * it failed to queue it, or to record it queued) is told to queue it (`tellBroken`).
 */
export function planChannelJob(job: PlannedJob, loaded: LoadedChannelJob, now: number, maxDelaySeconds: number): ChannelJobPlan {
  const { channel } = loaded;
  const routed = routing(channel, job.notice);
  const held = heldUntil(job.notBefore, now, maxDelaySeconds);
  if (held.kind === 'hold' && routed === null) return held;
  const owed = owedBrokenNotice(channel);
  const tell = owed ? { tellBroken: owed } : {};
  if (job.notice === undefined) return { kind: 'summary', ...tell };
  if (routed !== null || channel === null) return { kind: 'skipped', reason: routed ?? 'the channel was removed', ...tell };
  if (loaded.sendsNothing) return { kind: 'nothing-to-send' };
  const notice = job.notice;
  const incident = loaded.keepsIncidents ? notice.incident : null;
  if (incident?.action === 'resolve' && loaded.incidentOpen !== true)
    return { kind: 'skipped', reason: 'the pager was sent no trigger for this incident', resolveWithoutTrigger: true };
  const followUp = job.part === 'follow-up';
  return {
    kind: 'send',
    channel,
    deliveryId: `${channelDeliveryId(notice.id, channel.name)}${followUp ? FOLLOW_UP_SUFFIX : ''}`,
    followUp,
    withChart: job.chartPng !== undefined && !followUp,
    incident,
    urgent: notice.category === 'security',
    reservedSlot: job.slotAt !== undefined && now >= job.slotAt,
    destination: destinationOf(channel),
    spacingMs: loaded.spacingMs,
  };
}

/**
 * The notice a broken channel still owes: its state keeps one not queued yet. A broken state
 * without one (marked by `channels test`, or before the notice was kept in it) owes none: its
 * recipients were told, or the operator saw it.
 */
function owedBrokenNotice(channel: ChannelRecord | null): BrokenNoticeToQueue | null {
  if (channel?.state.kind !== 'broken' || channel.state.notice?.queuedAt !== null) return null;
  const { reason, since, notice } = channel.state;
  return { channel: { name: channel.name, type: channel.type }, account: notice.account, reason, since };
}

/** Why the job's channel no longer takes it, or null while it does. */
function routing(
  channel: ChannelRecord | null,
  notice: { readonly category: MailCategory; readonly account: { readonly address: string } } | undefined,
): string | null {
  if (!channel) return 'the channel was removed';
  if (notice !== undefined && !routesTo(channel, notice.account.address, notice.category)) return 'the channel is no longer routed this notice';
  if (channel.state.kind === 'broken') return 'the channel is broken';
  return null;
}

/** How a wait is put on a queue whose delays stop at `maxDelaySeconds`: the delay, and the time before which the job is held back. */
export interface QueuedWait {
  readonly delaySeconds: number;
  /** Set when the wait is longer than the queue's delay (epoch ms): the job goes back on the queue until then. */
  readonly notBefore: number | undefined;
}

/** Puts a wait of `waitMs` from `now` on the queue: rounded up, and past the queue's longest delay, held with `notBefore`. */
export function queuedWait(waitMs: number, now: number, maxDelaySeconds: number): QueuedWait {
  const seconds = Math.max(0, Math.ceil(waitMs / 1_000));
  return seconds > maxDelaySeconds ? { delaySeconds: maxDelaySeconds, notBefore: now + waitMs } : { delaySeconds: seconds, notBefore: undefined };
}

/** A job received at `now`: due, or held back again for the rest of its wait (at most the queue's longest delay). */
export type HeldJob = { kind: 'due' } | { kind: 'hold'; delaySeconds: number };

/** Whether a job with `notBefore` may go at `now`; rounded up, so it is never received early. */
export function heldUntil(notBefore: number | undefined, now: number, maxDelaySeconds: number): HeldJob {
  if (notBefore === undefined || now >= notBefore) return { kind: 'due' };
  return { kind: 'hold', delaySeconds: Math.min(maxDelaySeconds, Math.ceil((notBefore - now) / 1_000)) };
}
