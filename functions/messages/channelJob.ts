import * as z from 'zod';
import { addressSchema } from '../domain/address';
import { channelNameSchema } from '../domain/channel';
import { MAIL_CATEGORIES } from '../domain/mailCategory';
import { NOTICE_TABLE_MAX_ROWS, NOTICE_TYPES, type Notice } from '../domain/notice';
import { notifyMessageSchema } from './notifyMessage';

/** A notice as it travels on the channel queue (see `Notice`). */
export const noticeSchema = z.object({
  id: z.string().min(1).max(512),
  type: z.enum(NOTICE_TYPES),
  category: z.enum(MAIL_CATEGORIES),
  severity: z.enum(['critical', 'warning', 'info']),
  title: z.string().min(1).max(500),
  summary: z.string().max(2_000),
  fields: z.array(z.object({ label: z.string().max(200), value: z.string().max(2_000) })).max(40),
  links: z
    .array(z.object({ label: z.string().max(60), url: z.url({ protocol: /^https?$/ }), action: z.enum(['revoke', 'revoke-all', 'snooze', 'preferences']) }))
    .max(10),
  account: z.object({ address: z.string().min(1), label: z.string().nullable() }),
  at: z.number().int().min(0),
  chart: z.object({ alt: z.string().max(500) }).nullable(),
  incident: z.object({ key: z.string().min(1).max(255), action: z.enum(['trigger', 'resolve']) }).nullable(),
  details: z.record(z.string(), z.unknown()),
  table: z
    .object({
      columns: z.array(z.string().max(60)).min(1).max(12),
      rows: z.array(z.array(z.string().max(200)).max(12)).max(NOTICE_TABLE_MAX_ROWS),
      omitted: z.number().int().min(0),
    })
    .optional(),
}) satisfies z.ZodType<Notice, unknown>;

/**
 * The largest chart a job carries, base64 (about 150 KB of PNG; the alert chart is a few tens):
 * well inside SQS's 256 KB message limit beside the notice. A larger chart is left out and the
 * notice goes as text.
 */
export const MAX_CHART_BASE64 = 200_000;

const jobBase = {
  channel: channelNameSchema,
  /** How many times this job was re-queued after a throttled or failed attempt. */
  attempt: z.number().int().min(0).default(0),
  /** The destination slot reserved for this job when it was re-queued to wait (ms): it goes then, held only by an announced wait. */
  slotAt: z.number().int().min(0).optional(),
  /** Held back until then (epoch ms): a wait longer than the queue's longest delay (15 min) is reached by coming back early and going back on the queue. */
  notBefore: z.number().int().min(0).optional(),
  /** A webhook's failed attempts so far, and when the first failed (epoch ms): its retry schedule (`WEBHOOK_RETRY_DELAYS_MS`). */
  failures: z.number().int().min(0).optional(),
  failingSince: z.number().int().min(0).optional(),
};

/**
 * A message on the channel queue: one notice for one channel, or (`backlog: true`) the summary of
 * the notices parked for a rate-limited channel. The delivery id (`<notice id>#channel:<name>`) is
 * claimed before the send, so a redelivery sends nothing twice.
 */
export const channelJobSchema = z.union([
  z.object({
    ...jobBase,
    notice: noticeSchema,
    /** The notice's chart as a base64 PNG (Telegram and Discord jobs of a notice with a chart), sent as a photo or attachment. */
    chartPng: z.base64().max(MAX_CHART_BASE64).optional(),
    /** The full text that follows a Telegram photo whose caption could not hold it (its own delivery id). */
    part: z.literal('follow-up').optional(),
  }),
  z.object({ ...jobBase, backlog: z.literal(true) }),
]);
/** What every channel job carries: its channel and its place in the retries. */
interface JobBase {
  readonly channel: string;
  readonly attempt: number;
  readonly slotAt?: number | undefined;
  readonly notBefore?: number | undefined;
  readonly failures?: number | undefined;
  readonly failingSince?: number | undefined;
}
/** A job carrying one notice. */
export interface NoticeJob extends JobBase {
  readonly notice: Notice;
  readonly chartPng?: string | undefined;
  readonly part?: 'follow-up' | undefined;
}
/** The summary job of a channel's backlog. */
export interface BacklogJob extends JobBase {
  readonly backlog: true;
}
export type ChannelJob = NoticeJob | BacklogJob;

/**
 * A notify event handed to the channel side (`fanout`), on the fan-out queue: `channel-fanout`
 * expands it into one notice job per channel that takes it, apart from the paced email. Published
 * beside the notify queue's copy (`notifyPublisher`); a re-published event expands again and the
 * per-(event, channel) delivery ids send nothing twice.
 */
export const fanOutJobSchema = z.object({ fanout: notifyMessageSchema });
export type FanOutJob = z.infer<typeof fanOutJobSchema>;
/** The log fields that name a fan-out job (both consumers of a `fanout` job log it this way). */
export function fanOutJobAbout(job: FanOutJob): { fanout: true; eventId: string; kind: string; account: string } {
  return { fanout: true, eventId: job.fanout.eventId, kind: job.fanout.kind, account: job.fanout.account };
}
/** What a producer puts on the fan-out queue for an event (addresses in any case). */
export type FanOutEvent = z.input<typeof fanOutJobSchema>;

/**
 * An account report's chat notice on the fan-out queue (`report`): presented once by the report
 * worker (`presentReport`, no link: each channel's own Preferences link is the fan-out's), with the
 * report's chart (base64 PNG, only when there is one). `channel-fanout` routes it as alerts are
 * routed (the account's channels taking `reports`, not a pager, not muted) and queues one job per
 * channel under `<notice id>#channel:<name>`: a report built twice is posted once.
 */
const reportFanOutJobSchema = z.object({
  report: z.object({
    notice: noticeSchema.extend({
      type: z.enum(['report.daily', 'report.summary']),
      category: z.literal('reports'),
      links: z.array(noticeSchema.shape.links.element).max(0),
      account: z.object({ address: addressSchema, label: z.string().nullable() }),
    }),
    chartPng: z.base64().max(MAX_CHART_BASE64).optional(),
  }),
});
export type ReportFanOutJob = z.infer<typeof reportFanOutJobSchema>;
/** What the report worker publishes for a report's chats (a report's notice; the schema holds it to that). */
export interface ReportFanOut {
  readonly report: { readonly notice: Notice; readonly chartPng?: string | undefined };
}

/** Everything `channel-fanout` reads from the fan-out queue: a published notify event (`fanout`) or a report's chat notice (`report`). */
export const fanOutQueueJobSchema = z.union([fanOutJobSchema, reportFanOutJobSchema]);
/** What producers put on the fan-out queue. */
export type FanOutQueueMessage = FanOutEvent | ReportFanOut;

/**
 * Everything the channel worker reads from the channel queue: channel jobs, and a `fanout` job
 * queued there by a producer older than the fan-out queue (passed on to it, not expanded).
 */
export const channelQueueMessageSchema = z.union([fanOutJobSchema, ...channelJobSchema.options]);
/** What may be found on the channel queue (a fan-out job as older producers built it; the worker parses it into `FanOutJob`). */
export type ChannelQueueMessage = ChannelJob | FanOutEvent;
