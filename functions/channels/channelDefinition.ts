import type { ChannelConfig, ChannelType } from '../domain/channel';
import type { MailCategory } from '../domain/mailCategory';
import type { Notice } from '../domain/notice';

/**
 * What a destination's answer means for the delivery:
 * - `delivered`;
 * - `throttled`: it announced a wait (429); send again after `retryAfterMs`, not before;
 * - `refused`: permanent (the webhook was deleted, the bot removed, the key revoked): the channel is broken;
 * - `payload-rejected`: it refused our message (a 400 about the payload): our bug, the channel stays ok;
 * - `failed`: a passing failure (5xx, network, timeout): retry with backoff;
 * - `migrated`: the Telegram group became a supergroup: resend to `chatId`.
 */
export type ChannelAnswer =
  | { kind: 'delivered'; status: number }
  | { kind: 'throttled'; status: number; retryAfterMs: number }
  | { kind: 'refused'; status: number; reason: string }
  | { kind: 'payload-rejected'; status: number; reason: string }
  | { kind: 'failed'; status: number | null; reason: string }
  | { kind: 'migrated'; status: number; chatId: string };

/** The API bases that are settings (`TELEGRAM_API_URL`, `PAGERDUTY_EVENTS_URL`). */
export interface ApiBases {
  readonly telegram: string;
  /** The Events API v2 endpoint, or its base (`pagerdutyEndpoint` takes either). */
  readonly pagerduty: string;
}

/** One HTTP request to a destination. `url` may hold the secret (a Slack URL, a bot token): never log it. A multipart body sets its own content type. */
export interface ChannelRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string | FormData;
}

/**
 * What goes besides the notice: its chart (PNG bytes) where the type shows one, and which part of
 * a photo notice this request is (`follow-up`: the full text after a photo whose caption could not
 * hold it).
 */
export interface RequestExtras {
  readonly chart: Uint8Array | null;
  readonly part: 'whole' | 'follow-up';
}

/** Everything one request is built from. `deliveryId` is a webhook's `webhook-id`; `nowSec` its timestamp (fresh on every attempt). */
export interface RequestInput {
  readonly channel: Pick<ChannelConfig, 'url' | 'chatId'>;
  /** The resolved secret (a webhook URL, a bot token, a routing key, a signing secret). */
  readonly secret: string;
  readonly notice: Notice;
  readonly bases: ApiBases;
  readonly deliveryId: string;
  readonly nowSec: number;
  readonly extras: RequestExtras;
}

/** A destination's answer other than a 2xx, as the classifier sees it: `parsed` is the body as JSON (null when it is not), `reason` a short secret-free text. */
export interface AnswerSeen {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
  readonly parsed: unknown;
  readonly reason: string;
}

/**
 * How a type's API answers, by its published rules (a 2xx is delivered, a 5xx or 408 a passing
 * failure, for every type: `classifyAnswer`).
 */
export interface ChannelClassifier {
  /** The wait a 429 announces, in ms, or null when it names none (then 1 s). */
  readonly throttledWaitMs: (answer: AnswerSeen) => number | null;
  /** Any other answer below 500: `refused` (the channel is broken), `payload-rejected` (our bug), `migrated`, or `failed`. */
  readonly refusal: (answer: AnswerSeen) => ChannelAnswer;
}

/** How sends to one destination are spaced: its pacing key part and the least spacing between two sends. */
export interface ChannelPace {
  /** `telegram-group` for a Telegram group, else the type: shown in logs and benchmarks. */
  readonly kind: string;
  readonly spacingMs: number;
}

/** A type's limits and the delivery rules that follow from its API. */
export interface ChannelLimits {
  /** The largest request body the API takes (bytes of the JSON), or null where only per-field limits apply (`fields`). */
  readonly maxBodyBytes: number | null;
  /** Per-field limits the renderer keeps (characters), for tests and docs. */
  readonly fields: Readonly<Record<string, number>>;
  /** The spacing that keeps sends to one destination below the API's rate. */
  readonly pace: (channel: Pick<ChannelConfig, 'chatId'>) => ChannelPace;
  /** Whether notices that would wait long for their slot go as one combined message (chats); a pager or a receiver gets each. */
  readonly combinesBacklog: boolean;
  /** Whether a drawdown notice's chart is sent (as an image); the others get the notice alone. */
  readonly showsChart: boolean;
  /** Whether it keeps incidents (`notice.incident`: trigger, then resolve under the same key). */
  readonly keepsIncidents: boolean;
  /** How a passing failure is retried: `backoff` (30 s doubling, then dropped) or `schedule` (the webhook schedule over hours, then broken). */
  readonly retry: 'backoff' | 'schedule';
  /** Whether the type takes notices of `category` at all. */
  readonly takes: (category: MailCategory) => boolean;
  /** Whether a notice sent with its chart needs a follow-up text message (the caption could not hold it). */
  readonly needsFollowUp: (notice: Notice) => boolean;
}

/** What a channel of the type is configured with (`channels add|update`). */
export interface ChannelSettingsRules {
  /** What the secret is, as `channels add` explains it. */
  readonly secret: string;
  /** `required`: `--url` is the destination; otherwise why `--url` does not apply. */
  readonly url: { readonly kind: 'required' } | { readonly kind: 'refused'; readonly why: string };
  /** Whether `--chat-id` is required (else refused). */
  readonly chatId: boolean;
  /** The hosts its destination URL must be on in AWS (a leading dot: any subdomain of it); null where any public host is allowed. */
  readonly hosts: readonly string[] | null;
}

/** The notices a type's docs page shows (built by `test/support/channels/docExamples.ts`). */
export type NoticeExample = 'delegate.new' | 'drawdown.fired' | 'drawdown.recovered';

/**
 * One channel type: its settings, how a `Notice` becomes its payload and its HTTP request, how its
 * answers are classified and the limits its API sets. Each lives in `functions/channels/<type>/`
 * and is listed once in `channelRegistry.ts`.
 */
export interface ChannelDefinition<P = unknown> {
  readonly type: ChannelType;
  /** The product's name, for messages and docs. */
  readonly label: string;
  readonly settings: ChannelSettingsRules;
  /** The payload for `notice` (the request body's data), or null when the type has nothing to send for it. */
  readonly render: (notice: Notice, target: Pick<ChannelConfig, 'chatId'>) => P | null;
  /** The request that delivers it, or null when there is nothing to send. */
  readonly request: (input: RequestInput) => ChannelRequest | null;
  readonly classify: ChannelClassifier;
  readonly limits: ChannelLimits;
  /** The examples `docs/channels/<type>.md` shows, checked against `render`. */
  readonly examples: readonly NoticeExample[];
}

/** A type's limits from what differs from the usual: no body limit, no combining, chart or incidents, backoff retries, every category, no follow-up. */
export function channelLimits(own: Pick<ChannelLimits, 'fields' | 'pace'> & Partial<ChannelLimits>): ChannelLimits {
  return {
    maxBodyBytes: null,
    combinesBacklog: false,
    showsChart: false,
    keepsIncidents: false,
    retry: 'backoff',
    takes: () => true,
    needsFollowUp: () => false,
    ...own,
  };
}

/** The settings of a type whose secret is the URL it posts to (`what`: "webhook URL"), allowed in AWS only on `hosts`. */
export function secretUrlSettings(what: string, hosts: readonly string[]): ChannelSettingsRules {
  return { secret: `the ${what}`, url: { kind: 'refused', why: `${what} is its secret: keep it behind --secret` }, chatId: false, hosts };
}
