import * as z from 'zod';
import { HANDLER_CATALOG, type HandlerName, type HandlerSpec } from './handlerCatalog';
import { SubjectError } from '../shared/subjectError';

/** Raised when an environment variable is missing or malformed; the message names the variable (`new ConfigError(variable, details)`). */
export class ConfigError extends SubjectError {
  override readonly name = 'ConfigError';

  /** The environment variable. */
  get variable(): string {
    return this.subject;
  }
}

const url = z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ''));
const port = z.coerce.number().int().min(0).max(65_535);

/** Every setting the service reads from its environment (see "Configuration" in the README). */
export const settingsSchema = z.object({
  ROCKET_NODE_URL: url.optional(),
  ROCKET_INDEXER_URL: url.optional(),
  DYNAMODB_ENDPOINT: url.optional(),
  SES_ENDPOINT: url.optional(),
  PUBLIC_BASE_URL: url.optional(),
  SENTINEL_PORT: port.optional(),
  SENTINEL_TABLE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{0,200}$/, 'letters, digits, "_", "-" and "." only')
    .default('sentinel-'),
  /**
   * The stage (`devnet`, ...): set by the stack on every function; the CLI reads it, or else the
   * stage in a `sentinel-<stage>-` table prefix, to check channel secret names.
   */
  SENTINEL_STAGE: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'lowercase letters, digits and "-"')
    .optional(),
  MAIL_FROM: z.email().default('sentinel@localhost.localdomain'),
  /** Who is emailed the list of reports found missed (claimed, not delivered within the grace); unset: a log line instead. */
  OPERATOR_EMAIL: z.email().optional(),
  /**
   * Minutes after its due time a claimed report may still be delivered before reconciliation records
   * it as missed; default the report queue's retry window (its visibility timeout x receive count, 60).
   */
  REPORT_MISSED_GRACE_MINUTES: z.coerce.number().int().min(1).max(1_440).optional(),
  /** Seconds after its due time a report whose chain reads still fail is built from stored data (0–600). */
  REPORT_STORED_DATA_GRACE_SECONDS: z.coerce.number().int().min(0).max(600).default(60),
  CHAIN_RPS: z.coerce.number().positive().max(10_000).default(20),
  CHAIN_TIMEOUT_MS: z.coerce.number().int().positive().max(300_000).default(10_000),
  /** Retries of a chain request after its first attempt. */
  CHAIN_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  /** Collect jobs of one SQS batch polled at once (each makes a few chain requests under the shared rate limit). */
  COLLECT_RECORD_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(10),
  /** Most accounts one dispatch run queues per shard of the due index. */
  DISPATCH_LIMIT_PER_SHARD: z.coerce.number().int().min(1).max(100_000).default(1_000),
  /** Time a Lambda keeps free before its timeout: no record starts and no chain retry waits within it. */
  DEADLINE_MARGIN_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  AWS_REGION: z.string().min(1).default('us-east-1'),
  /**
   * Locally: the one secret every purpose's link key pair and the pages' anti-CSRF key are derived
   * from (the local runtime plays every function in one process). In AWS the keys are separate
   * (`LINK_KEY_SECRET_PREFIX`, `LINK_PUBLIC_KEYS_PARAMETER`, `CSRF_SECRET_ARN`).
   */
  SENTINEL_LINK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Secrets `SENTINEL_LINK_SECRET` replaced, comma-separated: links they signed still verify. */
  SENTINEL_LINK_SECRET_PREVIOUS: z
    .string()
    .transform((list) =>
      list
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    )
    .pipe(z.array(z.string().min(32, 'each secret must be at least 32 characters')))
    .optional(),
  /** In AWS: the name prefix of the per-purpose private link key secrets (`<prefix><purpose>`, Secrets Manager). */
  LINK_KEY_SECRET_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9/_+=.@-]{1,400}$/, 'a Secrets Manager name prefix')
    .optional(),
  /** In AWS: the SSM parameter holding the published public link keys (`sentinel link publish-keys`). */
  LINK_PUBLIC_KEYS_PARAMETER: z
    .string()
    .regex(/^\/?[A-Za-z0-9_.\-/]{1,1000}$/, 'an SSM parameter name')
    .optional(),
  /** In AWS: the pages' anti-CSRF secret (Secrets Manager name; `AWSCURRENT` issues, `AWSPREVIOUS` still verifies). */
  CSRF_SECRET_ARN: z.string().min(1).optional(),
  /**
   * Emails per second for the whole SES account (alerts and reports together). Unset in AWS: the
   * account's `MaxSendRate` (SES `GetSendQuota`, read once per cold start); locally 14.
   */
  MAIL_RATE: z.coerce.number().positive().max(10_000).optional(),
  /** In AWS: how many instances of this function send at once (each takes an equal part of its share; set by the CDK stack). */
  MAIL_RATE_WORKERS: z.coerce.number().int().min(1).max(1_000).default(1),
  BACKFILL_DAYS: z.coerce.number().positive().max(365).default(7),
  /** In AWS: the queues, the signing function and the SES configuration set (set by the CDK stack). */
  COLLECT_QUEUE_URL: url.optional(),
  NOTIFY_QUEUE_URL: url.optional(),
  REPORT_QUEUE_URL: url.optional(),
  SIGN_REVOCATION_FUNCTION_NAME: z.string().min(1).optional(),
  /** In AWS: the private function the desk's Test button invokes (set by the CDK stack). */
  CHANNEL_TEST_FUNCTION_NAME: z.string().min(1).optional(),
  /** In AWS: the channel queue (one job per notice and channel: queued by the fan-out, notify and the report worker; the channel worker re-queues delayed jobs on it). */
  CHANNEL_QUEUE_URL: url.optional(),
  /** In AWS: the fan-out queue (producers publish each notify event's `fanout` job to it; `channel-fanout` expands it into channel jobs). */
  FANOUT_QUEUE_URL: url.optional(),
  /**
   * How long a process keeps the channel list it read (seconds; 0 reads it every time). Routing
   * notices and reports reads it once per this time instead of once per notice; a channel added,
   * changed or removed is seen within it.
   */
  CHANNEL_LIST_CACHE_SECONDS: z.coerce.number().min(0).max(300).default(5),
  /** In AWS: the revocations FIFO queue (grouped by account): revoke-all units, and automatic revocations. */
  REVOCATION_QUEUE_URL: url.optional(),
  /** In AWS: the protective-decision FIFO queue (grouped by account): collect's automatic revocations, one delegate each. */
  DECISION_QUEUE_URL: url.optional(),
  /** Whether the link endpoint routes `/revoke-all`, so links to it may be written (`true` in a stage that deploys the route; default false). */
  REVOKE_ALL_LINKS: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .default(false),
  SES_CONFIGURATION_SET: z.string().min(1).optional(),
  /**
   * The SSM parameter holding the stage-wide switch of automatic protective actions (`on` or
   * `off`; missing or unreadable is off). Unset: locally a file in the state folder, elsewhere off.
   */
  PROTECTION_PARAMETER_NAME: z
    .string()
    .regex(/^\/?[A-Za-z0-9_.\-/]{1,1000}$/, 'an SSM parameter name')
    .optional(),
  /** How old a protective decision may be when the signer acts on it (minutes). */
  PROTECTION_DECISION_MAX_AGE_MINUTES: z.coerce.number().positive().max(60).default(5),
  /** More accounts than this firing automatic protection within an hour opens the breaker: act on none, alert the operator. */
  PROTECTION_BREAKER_ACCOUNTS: z.coerce.number().int().min(1).max(10_000).default(5),
  /** The Telegram Bot API base (tests and people point it at a local receiver). */
  TELEGRAM_API_URL: url.default('https://api.telegram.org'),
  /**
   * The PagerDuty Events API v2 endpoint (`https://events.eu.pagerduty.com/v2/enqueue` for a
   * service in the EU region); the API base alone is accepted too (`channels/pagerdutyEndpoint`).
   */
  PAGERDUTY_EVENTS_URL: url.default('https://events.pagerduty.com/v2/enqueue'),
  /** Where the email templates are (the Lambda bundle copies them next to the handler). */
  TEMPLATES_DIR: z.string().min(1).optional(),
  /** Where the desk page's built browser client is (the Lambda bundle writes it next to the handler); unset: pages without it. */
  DESK_ASSETS_DIR: z.string().min(1).optional(),
});
export type Settings = z.infer<typeof settingsSchema>;

/** The settings of `handler`, with what it requires (`HANDLER_CATALOG`) guaranteed set. */
export type HandlerSettings<H extends HandlerName> = Settings & {
  readonly [K in (typeof HANDLER_CATALOG)[H]['requires']['settings'][number]]-?: NonNullable<Settings[K]>;
};

/**
 * Loads the settings of one Lambda at its cold start: `ConfigError` naming the first missing
 * required variable, instead of a failure at its first use.
 */
export function settingsFor<H extends HandlerName>(handler: H, env: Readonly<Record<string, string | undefined>> = process.env): HandlerSettings<H> {
  const settings = loadSettings(env);
  const requirement: HandlerSpec['requires'] = HANDLER_CATALOG[handler].requires;
  for (const variable of requirement.settings) {
    if (settings[variable] === undefined) throw new ConfigError(variable, `is required by ${handler} but not set`);
  }
  const local = settings.SENTINEL_LINK_SECRET !== undefined;
  if (requirement.links.mints.length > 0 && !local && settings.LINK_KEY_SECRET_PREFIX === undefined) {
    throw new ConfigError('LINK_KEY_SECRET_PREFIX', `is required by ${handler} (or SENTINEL_LINK_SECRET locally) but not set`);
  }
  if (requirement.links.verifies.length > 0 && !local) {
    const variables =
      requirement.links.forms === false ? (['LINK_PUBLIC_KEYS_PARAMETER'] as const) : (['LINK_PUBLIC_KEYS_PARAMETER', 'CSRF_SECRET_ARN'] as const);
    for (const variable of variables) {
      if (settings[variable] === undefined) throw new ConfigError(variable, `is required by ${handler} (or SENTINEL_LINK_SECRET locally) but not set`);
    }
  }
  return settings as HandlerSettings<H>;
}

/**
 * Reads and validates settings from an environment map. Throws `ConfigError` naming the first bad variable.
 * Empty strings count as unset.
 */
export function loadSettings(env: Readonly<Record<string, string | undefined>> = process.env): Settings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = settingsSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(variable, issue?.message ?? 'invalid', { cause: parsed.error });
  }
  return parsed.data;
}
