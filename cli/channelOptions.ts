import type * as z from 'zod';
import type { ChannelDefinition } from '../functions/channels/channelDefinition';
import { channelDefinition } from '../functions/channels/channelRegistry';
import {
  CHANNEL_TYPES,
  channelCategoriesSchema,
  channelNameSchema,
  channelTypeSchema,
  chatIdSchema,
  DEFAULT_CHANNEL_CATEGORIES,
  destinationUrlProblem,
  type ChannelConfig,
  type UrlPolicy,
} from '../functions/domain/channel';
import { channelSecretRefSchema } from '../functions/domain/channelSecretRef';
import { secretScopeProblem, type ChannelSecretScope } from './channelSecretScope';
import { UsageError } from './output';

/** The options of `channels add` and `channels update`, as commander gives them. */
export interface ChannelOptions {
  type?: string;
  secret?: string;
  url?: string;
  chatId?: string;
  categories?: string;
}

/** Parses one option's value with `schema`, or a `UsageError` naming the option. */
function option<S extends z.ZodType>(name: string, schema: S, value: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new UsageError(`${name}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
}

/** A channel name argument, or a `UsageError`. */
export function parseChannelName(name: string): string {
  return option('<name>', channelNameSchema, name);
}

/** Where a channel may point: its URL policy, and the Secrets Manager names the channel worker may read. */
export interface ChannelPolicy {
  readonly urls: UrlPolicy;
  readonly secrets: ChannelSecretScope;
}

/**
 * The configuration `options` describe, applied over `current` (an update) or alone (an add):
 * every option checked, then the combination (a webhook needs `--url`, Telegram `--chat-id`,
 * and the others take neither). A `UsageError` names the offending option; nothing is written.
 */
export function channelConfigFrom(name: string, options: ChannelOptions, current: ChannelConfig | null, policy: ChannelPolicy): ChannelConfig {
  const type = options.type === undefined ? current?.type : option('--type', channelTypeSchema, options.type);
  if (type === undefined) throw new UsageError("required option '--type <type>' not specified");
  if (options.secret !== undefined && !channelSecretRefSchema.safeParse(options.secret).success) {
    // Worded so that the redaction of "secret: value" in messages leaves it readable.
    throw new UsageError(
      '--secret must be a reference: env:VARIABLE_NAME locally, or in AWS a Secrets Manager name or ARN prefixed with secret and a colon (never the secret itself)',
    );
  }
  const secret = options.secret === undefined ? current?.secret : channelSecretRefSchema.parse(options.secret);
  const outOfScope = options.secret === undefined || secret === undefined ? null : secretScopeProblem(secret, policy.secrets);
  if (outOfScope !== null) throw new UsageError(outOfScope);
  if (secret === undefined) throw new UsageError("required option '--secret <ref>' not specified");
  const categories =
    options.categories === undefined
      ? (current?.categories ?? [...DEFAULT_CHANNEL_CATEGORIES])
      : option('--categories', channelCategoriesSchema, options.categories);
  const typeChanged = current !== null && current.type !== type;
  let url = options.url ?? (typeChanged ? null : (current?.url ?? null));
  let chatId = options.chatId ?? (typeChanged ? null : (current?.chatId ?? null));
  const { settings } = channelDefinition(type);
  if (settings.url.kind === 'required') {
    if (url === null) throw new UsageError(`--url: required for a ${type} channel (an https URL)`);
    const problem = destinationUrlProblem(url, policy.urls);
    if (problem !== null) throw new UsageError(`--url: ${problem}`);
  } else if (options.url !== undefined) {
    throw new UsageError(`--url: applies to ${typesWith((s) => s.url.kind === 'required')} channels only (a ${type} channel's ${settings.url.why})`);
  } else url = null;
  if (settings.chatId) {
    if (chatId === null) throw new UsageError(`--chat-id: required for a ${type} channel`);
    chatId = option('--chat-id', chatIdSchema, chatId);
  } else if (options.chatId !== undefined) {
    throw new UsageError(`--chat-id: applies to ${typesWith((s) => s.chatId)} channels only`);
  } else chatId = null;
  return { name, type, secret, url, chatId, categories, accounts: current?.accounts ?? [] };
}

/** The types whose settings pass `test`, as a sentence names them ("webhook", "slack or discord"). */
function typesWith(test: (settings: ChannelDefinition['settings']) => boolean): string {
  return CHANNEL_TYPES.filter((t) => test(channelDefinition(t).settings)).join(' or ');
}

/** The names in a `--add-channel`/`--remove-channel` value (comma-separated), each checked. */
export function channelNames(optionName: string, value: string): string[] {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0) throw new UsageError(`${optionName}: give one or more channel names`);
  return [...new Set(names.map((n) => option(optionName, channelNameSchema, n)))];
}

/** A webhook URL as it may be shown: its origin only (the path may be a capability). */
export function shownUrl(url: string | null): string {
  if (url === null) return '';
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return '(invalid URL)';
  }
}
