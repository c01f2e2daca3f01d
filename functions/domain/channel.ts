import * as z from 'zod';
import { addressSchema, type Address } from './address';
import { MAIL_CATEGORIES, type MailCategory } from './mailCategory';
import { channelSecretRefSchema } from './channelSecretRef';

/** The destinations a channel can be. */
export const CHANNEL_TYPES = ['slack', 'discord', 'telegram', 'pagerduty', 'webhook', 'teams'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** What a channel receives unless told otherwise: the alerts; reports to chat are opt-in. */
export const DEFAULT_CHANNEL_CATEGORIES: readonly MailCategory[] = ['drawdown', 'security', 'expiry'];

/**
 * The notice a broken channel owes: which account's security recipients are emailed, and when the
 * notice went on the notify queue (`null`: not yet, so whatever job meets the channel queues it).
 */
export interface BrokenChannelNotice {
  readonly account: string;
  readonly queuedAt: number | null;
}

/**
 * A channel's health: `broken` after a permanent refusal, until `channels test` succeeds. A state
 * without `notice` (marked by `channels test`, or before the notice was kept here) owes none.
 */
export type ChannelState = { kind: 'ok' } | { kind: 'broken'; reason: string; since: number; notice?: BrokenChannelNotice | undefined };

/** The last delivery attempt's outcome, for `channels list`. */
export interface LastDelivery {
  readonly at: number;
  readonly outcome: 'delivered' | 'refused' | 'failed';
}

/** A named destination and its routing. */
export interface ChannelConfig {
  name: string;
  type: ChannelType;
  /** `env:VAR` or `secret:<name or ARN>`: the webhook URL, bot token, routing key or signing secret. Never the secret itself. */
  secret: string;
  /** The webhook's URL (type `webhook`); `null` for the others (their URL is the secret or the API base). */
  url: string | null;
  /** The Telegram chat id (type `telegram`). */
  chatId: string | null;
  categories: MailCategory[];
  /** Accounts whose notices this channel gets (EIP-55). */
  accounts: Address[];
}

/** A stored channel. */
export type ChannelRecord = ChannelConfig & {
  state: ChannelState;
  lastDelivery: LastDelivery | null;
  createdAt: number;
  updatedAt: number;
  /** The channel's link epoch: its chat buttons' links issued at or before it no longer work (`channels revoke-links`). */
  linksRevokedAt?: number | undefined;
};

/** At most this many accounts per channel (the channel is one item). */
export const MAX_CHANNEL_ACCOUNTS = 5_000;

export const channelNameSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'must be 1 to 64 letters, digits, "-" or "_", starting with a letter or digit');

export const channelTypeSchema = z.enum(CHANNEL_TYPES, { error: `must be one of ${CHANNEL_TYPES.join(', ')}` });

export const channelCategoriesSchema = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .split(/[,;]/)
          .map((s) => s.trim())
          .filter((s) => s !== '')
      : v,
  z
    .array(z.enum(MAIL_CATEGORIES, { error: (iss) => `${JSON.stringify(iss.input)} is not a category (${MAIL_CATEGORIES.join(', ')})` }))
    .min(1, 'give at least one category')
    .transform((list) => [...new Set(list)]),
);

export const chatIdSchema = z
  .string()
  .trim()
  .regex(/^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/, 'must be a numeric chat id (e.g. -1001234567890) or @channelusername');

/** Where a URL may point. Locally (`loopback: true`) `http://127.0.0.1` and `localhost` are accepted too, for local receivers. */
export interface UrlPolicy {
  readonly loopback: boolean;
}

const PRIVATE_V4 = /^(10\.|127\.|169\.254\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|0\.)/;

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
}

/** Why `url` may not be a destination under `policy`, or null when it may. Hosts given as private addresses are refused (names are checked after DNS resolution, when sending). */
export function destinationUrlProblem(url: string, policy: UrlPolicy): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (parsed.username || parsed.password) return 'must not carry credentials';
  const loopback = isLoopbackHost(parsed.hostname);
  if (policy.loopback && loopback && (parsed.protocol === 'http:' || parsed.protocol === 'https:')) return null;
  if (parsed.protocol !== 'https:') return 'must be an https URL';
  if (loopback || PRIVATE_V4.test(parsed.hostname) || parsed.hostname.startsWith('[')) return 'must not point to a loopback, private or link-local address';
  return null;
}

/** A channel's state as stored: ok, or broken since a refusal (with the notice it may still owe). */
export const channelStateSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ok') }),
  z.object({
    kind: z.literal('broken'),
    reason: z.string(),
    since: z.number(),
    notice: z.object({ account: addressSchema, queuedAt: z.number().nullable() }).optional(),
  }),
]);

/** Stored form of a channel, validated on write and read. */
export const channelRecordSchema = z.object({
  name: channelNameSchema,
  type: channelTypeSchema,
  secret: channelSecretRefSchema,
  url: z.string().nullable(),
  chatId: z.string().nullable(),
  categories: z.array(z.enum(MAIL_CATEGORIES)).min(1),
  accounts: z.array(addressSchema).max(MAX_CHANNEL_ACCOUNTS),
  state: channelStateSchema,
  lastDelivery: z.object({ at: z.number(), outcome: z.enum(['delivered', 'refused', 'failed']) }).nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
  linksRevokedAt: z.number().int().min(0).optional(),
}) satisfies z.ZodType<ChannelRecord, unknown>;

/** Whether `channel` gets notices of `category` about `account`. */
export function routesTo(channel: Pick<ChannelConfig, 'categories' | 'accounts'>, account: string, category: MailCategory): boolean {
  return channel.categories.includes(category) && channel.accounts.some((a) => a.toLowerCase() === account.toLowerCase());
}
