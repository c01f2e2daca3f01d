import type { ChannelSenderDeps } from '../../channels/channelSender';
import type { ChannelRecord } from '../../domain/channel';
import type { BrokenNoticeToQueue } from '../../domain/channelJobPlan';
import type { ChannelJob, NoticeJob } from '../../messages/channelJob';
import type { NotifyQueueEvent } from '../../messages/notifyMessage';
import type { MessageQueue } from '../../queue/messageQueue';
import type { Counters } from '../../shared/observability';
import type { AccountHistoryRepository } from '../../store/accountHistoryRepository';
import type { ChannelBacklogRepository } from '../../store/channelBacklogRepository';
import type { ChannelsRepository } from '../../store/channelsRepository';
import type { DeliveryRepository } from '../../store/deliveryRepository';
import type { PagerIncidentsRepository } from '../../store/pagerIncidentsRepository';
import type { DestinationSlots } from './destinationSlots';

/** What the channel worker needs. */
export interface ChannelJobDeps {
  readonly repos: {
    readonly channels: Pick<ChannelsRepository, 'get' | 'markBroken' | 'markNoticeQueued' | 'recordDelivery' | 'setChatId'>;
    readonly channelBacklog: Pick<ChannelBacklogRepository, 'park' | 'pending' | 'take' | 'remove' | 'mark'>;
    /** The delivery id of each (notice, channel): sent at most once. */
    readonly deliveries: Pick<DeliveryRepository, 'begin' | 'complete' | 'fail'>;
    /** Each notice's outcome per channel, in its account's delivery history. */
    readonly history: Pick<AccountHistoryRepository, 'recordDelivery'>;
    /** Which pager incidents each channel was sent a trigger for: a resolve goes only there. */
    readonly incidents: Pick<PagerIncidentsRepository, 'opened' | 'isOpen' | 'closed'>;
  };
  readonly channelSender: ChannelSenderDeps;
  /** Where a throttled, paced or failed job goes back to, with a delay. */
  readonly channelQueue: MessageQueue<ChannelJob>;
  /** Where the notice of a channel this worker marked broken (or found broken with it not queued) goes, for the notify consumer to email. */
  readonly notifyQueue: MessageQueue<NotifyQueueEvent>;
  /** Send slots per destination: the process's own, or shared by every instance (`SharedDestinationPacer`). */
  readonly pacer: DestinationSlots;
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
  /** Delivered before (a redelivered job). */
  | { kind: 'duplicate' }
  /** The channel's type has nothing to send for this notice: nothing claimed, sent or recorded. */
  | { kind: 'not-applicable' }
  /** Put back on the queue to be sent after `delaySeconds`. */
  | { kind: 'requeued'; delaySeconds: number; reason: string }
  | { kind: 'skipped'; reason: string }
  /** Refused for good: the channel is broken (`told`: this job marked it, and queued the notice its recipients are emailed). */
  | { kind: 'refused'; reason: string; told: boolean }
  /** The destination refused our payload: our bug, counted; the channel stays ok. */
  | { kind: 'payload-rejected'; reason: string }
  /** Passing failures on every attempt up to the limit, or a channel this process cannot use as configured: dropped. */
  | { kind: 'gave-up'; reason: string }
  /** Parked in the destination's backlog, to go in its next summary. */
  | { kind: 'parked' }
  /** A backlog's summary went out, carrying `notices` notices. */
  | { kind: 'combined'; notices: number };

/**
 * What a job's delivery leaves to be done once it returns (`settle`, in one place, before the
 * history): nothing more (`done`, or only a broken channel's notice still to queue), a re-queue
 * after a wait, a passing failure to retry (a webhook's schedule may end it by marking the channel
 * broken), a refusal that marks the channel broken, or a job held back for the rest of its wait.
 */
export type ChannelJobNext =
  | { readonly kind: 'done'; readonly outcome: ChannelJobOutcome; readonly tellBroken?: BrokenNoticeToQueue }
  /** Back on the queue unchanged for the rest of its `notBefore` wait (no attempt counted). */
  | { readonly kind: 'hold'; readonly job: ChannelJob; readonly delaySeconds: number }
  | { readonly kind: 'requeue'; readonly job: ChannelJob; readonly waitMs: number; readonly reason: string; readonly failure: boolean }
  | { readonly kind: 'retry'; readonly job: NoticeJob; readonly channel: ChannelRecord; readonly reason: string }
  | { readonly kind: 'refuse'; readonly account: string; readonly channel: ChannelRecord; readonly reason: string };

/** Passing failures of a non-webhook channel are tried this many times (backoff 30 s doubling, at most 15 min); webhooks follow `WEBHOOK_RETRY_DELAYS_MS`. */
export const MAX_CHANNEL_ATTEMPTS = 8;
/** Re-queues of any reason (throttling, pacing) after which a job is dropped. */
export const MAX_CHANNEL_REQUEUES = 50;
/** How long a job waits when another attempt holds its delivery id. */
export const IN_PROGRESS_RETRY_S = 30;
