import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import * as z from 'zod';
import { CHAIN_REST_BASE, STAGE_NAMES, type StageName } from './chainEnvironments';
import { chainRateBudget, DEFAULT_COLLECT_CONCURRENCY, MIN_EVENT_SOURCE_CONCURRENCY, type ChainRateBudget } from './chainRateBudget';

/** Raised when a CDK context value is missing or malformed; the message names the context key. */
export class StageConfigError extends Error {
  override readonly name = 'StageConfigError';
  constructor(
    readonly key: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`context "${key}": ${message}`, options);
  }
}

/** Everything one stage's stacks are built from, validated. */
export interface StageConfig {
  readonly stage: StageName;
  /** Prefix of every physical name (tables, queues, functions): `sentinel-<stage>-`. */
  readonly prefix: string;
  readonly chain: { readonly nodeUrl: string; readonly indexerUrl: string };
  readonly rate: ChainRateBudget;
  /** Sender address and the verified SES identity (domain or address) it belongs to. */
  readonly mail: { readonly from: string; readonly identity: string; readonly sandboxRecipients: readonly string[] };
  /** Custom domain for the link endpoint (an ACM certificate in the stage's region); without it links use the API's execute-api endpoint. */
  readonly domain?: { readonly name: string; readonly certificateArn: string };
  /** Owner keys the stack creates (names; alias `alias/sentinel/<stage>/<name>`). */
  readonly ownerKeys: readonly string[];
  /** Owner keys that already exist, by key ARN. */
  readonly ownerKeyArns: readonly string[];
  readonly alarmEmail?: string;
  /**
   * Per-client limits of the link endpoint's WAF: requests one IP address may make in
   * {@link LINK_RATE_WINDOW_SECONDS} (all methods; and `POST` alone) before it is answered 429.
   */
  readonly linkRateLimit: { readonly requests: number; readonly posts: number };
  /**
   * The AWS account and region the stage deploys to: required (and pinned) for testnet and beta;
   * devnet may leave them out and synthesizes environment-agnostic stacks.
   */
  readonly env?: { readonly account: string; readonly region: string };
  /** Value of the `owner` cost-allocation tag. */
  readonly owner: string;
  /** X-Ray active tracing on every function. */
  readonly tracing: boolean;
  readonly logRetention: RetentionDays;
  readonly logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /**
   * Architecture of the functions that load the native chart renderer (`notify`, `daily-report`).
   * ARM64 like every function: their asset carries the addon for it whatever the build host (see
   * `infra/bundling/nativeAddon.ts`); `x86_64` remains as a way back.
   */
  readonly renderArchitecture: 'arm64' | 'x86_64';
}

/** A list from context: a JSON array (cdk.json, `-c k='["a"]'`) or comma-separated text (`-c k=a,b`). */
const list = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value;
    const text = value.trim();
    if (text.startsWith('[')) {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return value; // reported below as "expected array"
      }
    }
    return text === '' ? [] : text.split(',').map((s) => s.trim());
  },
  z.array(z.string().min(1)),
);

/** The window WAF counts each client's requests over (its rate-based rules' evaluation window). */
export const LINK_RATE_WINDOW_SECONDS = 300;

/** WAF accepts rate-based limits from 10 to 2,000,000,000 requests per window. */
const wafLimit = z.coerce.number().int().min(10).max(2_000_000_000);

const retentionValues = new Set<number>(Object.values(RetentionDays).filter((v): v is number => typeof v === 'number'));

const keyName = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'owner key names are lowercase letters, digits and "-"');
const keyArn = z
  .string()
  .regex(/^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/[0-9a-f-]{36}$/, 'expected a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>)');

const contextSchema = z.object({
  stage: z.enum(STAGE_NAMES),
  indexerPath: z
    .string()
    .regex(/^(\/[A-Za-z0-9._~-]+)*$/, 'a path like "/indexer" (or "" for none)')
    .default('/indexer'),
  chainRps: z.coerce.number().positive().max(10_000).default(20),
  collectConcurrency: z.coerce.number().int().min(MIN_EVENT_SOURCE_CONCURRENCY).max(1000).default(DEFAULT_COLLECT_CONCURRENCY),
  signerRps: z.coerce.number().positive().default(2),
  signerConcurrency: z.coerce.number().int().min(1).max(100).default(2),
  account: z
    .string()
    .regex(/^\d{12}$/, 'a 12-digit AWS account id')
    .optional(),
  region: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'an AWS region like eu-west-1')
    .optional(),
  reportRps: z.coerce.number().positive().default(1),
  mailFrom: z.email().default('sentinel@example.com'),
  sesIdentity: z.string().min(3).optional(),
  sandboxRecipients: list.default([]),
  domainName: z
    .string()
    .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, 'a DNS name')
    .optional(),
  certificateArn: z.string().startsWith('arn:').optional(),
  ownerKeys: list.pipe(z.array(keyName)).default([]),
  ownerKeyArns: list.pipe(z.array(keyArn)).default([]),
  alarmEmail: z.email().optional(),
  linkRateLimit: wafLimit.default(100),
  linkPostRateLimit: wafLimit.default(20),
  owner: z
    .string()
    .regex(/^[\w .:/=+@-]{1,256}$/, 'a tag value')
    .default('portfolio-sentinel-operators'),
  tracing: z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean()).default(false),
  logRetentionDays: z.coerce
    .number()
    .refine((d) => retentionValues.has(d), 'one of the CloudWatch Logs retention values (1, 3, 5, 7, 14, 30, 60, 90, ...)')
    .default(30),
  logLevel: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']).default('INFO'),
  renderArchitecture: z.enum(['arm64', 'x86_64']).default('arm64'),
});

/** The context keys a stage reads (for docs and error messages). */
export const STAGE_CONTEXT_KEYS = Object.keys(contextSchema.shape);

/**
 * Context keys that stages deployed for real must set (no default fits them): where the stage
 * lives, who mail comes from, who hears about alarms. devnet may leave them out (offline synths).
 */
export const REQUIRED_CONTEXT: Readonly<Record<StageName, readonly string[]>> = {
  devnet: [],
  testnet: ['account', 'region', 'mailFrom', 'alarmEmail'],
  beta: ['account', 'region', 'mailFrom', 'alarmEmail'],
};

/**
 * Validates the CDK context of one synth into a `StageConfig`. `read(key)` is usually
 * `(k) => app.node.tryGetContext(k)`. An empty value counts as unset, except `indexerPath`
 * where `""` means "no prefix". Throws `StageConfigError` naming every missing required key, or else
 * the first bad key.
 */
export function loadStageConfig(read: (key: string) => unknown): StageConfig {
  const raw = Object.fromEntries(STAGE_CONTEXT_KEYS.map((k) => [k, read(k)]).filter(([k, v]) => v !== undefined && (v !== '' || k === 'indexerPath')));
  const stage = z.enum(STAGE_NAMES).safeParse(raw['stage']);
  if (stage.success) {
    // Every missing key at once: one synth tells the operator all that is left to set.
    const missing = REQUIRED_CONTEXT[stage.data].filter((key) => raw[key] === undefined);
    if (missing.length > 0) {
      throw new StageConfigError(missing.join(', '), `required for stage ${stage.data} (${missing.map((key) => `-c ${key}=...`).join(' ')})`);
    }
  }
  if ((raw['account'] === undefined) !== (raw['region'] === undefined)) {
    throw new StageConfigError(raw['account'] === undefined ? 'account' : 'region', 'account and region go together');
  }
  const result = contextSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new StageConfigError(String(issue?.path[0] ?? 'context'), issue?.message ?? 'invalid', { cause: result.error });
  }
  const parsed = result.data;
  if (parsed.linkPostRateLimit > parsed.linkRateLimit) {
    throw new StageConfigError('linkPostRateLimit', `at most linkRateLimit (${parsed.linkRateLimit}): every POST counts against both`);
  }
  if ((parsed.domainName === undefined) !== (parsed.certificateArn === undefined)) {
    throw new StageConfigError(parsed.domainName ? 'certificateArn' : 'domainName', 'domainName and certificateArn go together');
  }
  const certificateRegion = parsed.certificateArn?.split(':')[3];
  if (parsed.region !== undefined && certificateRegion !== undefined && certificateRegion !== parsed.region) {
    throw new StageConfigError('certificateArn', `the link endpoint is regional: its certificate must be in ${parsed.region}, not ${certificateRegion}`);
  }
  const base = CHAIN_REST_BASE[parsed.stage];
  let rate: ChainRateBudget;
  try {
    rate = chainRateBudget(parsed.chainRps, parsed.collectConcurrency, parsed.signerRps, {
      signerConcurrency: parsed.signerConcurrency,
      reportRps: parsed.reportRps,
    });
  } catch (err) {
    throw new StageConfigError('chainRps', (err as Error).message, { cause: err });
  }
  const mailDomain = parsed.mailFrom.slice(parsed.mailFrom.lastIndexOf('@') + 1);
  return {
    stage: parsed.stage,
    prefix: `sentinel-${parsed.stage}-`,
    chain: { nodeUrl: base, indexerUrl: `${base}${parsed.indexerPath}` },
    rate,
    mail: { from: parsed.mailFrom, identity: parsed.sesIdentity ?? mailDomain, sandboxRecipients: parsed.sandboxRecipients },
    ...(parsed.domainName && parsed.certificateArn ? { domain: { name: parsed.domainName, certificateArn: parsed.certificateArn } } : {}),
    ownerKeys: parsed.ownerKeys,
    ownerKeyArns: parsed.ownerKeyArns,
    ...(parsed.alarmEmail ? { alarmEmail: parsed.alarmEmail } : {}),
    linkRateLimit: { requests: parsed.linkRateLimit, posts: parsed.linkPostRateLimit },
    ...(parsed.account && parsed.region ? { env: { account: parsed.account, region: parsed.region } } : {}),
    owner: parsed.owner,
    tracing: parsed.tracing,
    logRetention: parsed.logRetentionDays as RetentionDays,
    logLevel: parsed.logLevel,
    renderArchitecture: parsed.renderArchitecture,
  };
}
