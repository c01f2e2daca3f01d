import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESClient } from '@aws-sdk/client-ses';
import { SQSClient } from '@aws-sdk/client-sqs';
import { createChainClient } from '../chain/chainClient';
import type { ChainClient } from '../chain/ports';
import { ConfigError, type Settings } from '../config/settings';
import { ActionLinks } from '../links/actionLinks';
import { LinkTokenCodec } from '../links/linkToken';
import { SesSender } from '../mail/send/sesSender';
import type { MessageQueue } from '../queue/messageQueue';
import { SqsQueue } from '../queue/sqsQueue';
import { SqsMessageVisibility } from '../queue/sqsMessageVisibility';
import { createDocumentClient, createDynamoDbClient } from '../store/documentClient';
import { createRepositories, type Repositories } from '../store/repositories';
import { repositoriesOf, type RepositoryClasses } from '../store/repositoriesOf';
import type { Log } from '../shared/observability';
import { CsrfTokens } from '../web/csrfToken';
import { describeError } from '../shared/describeError';

/*
 * Builders of the adapters a handler needs, from validated settings. Handlers call them once
 * per cold start; the local runtime and the CLI call the same ones, pointed at local services.
 */

/** The DynamoDB client of `AWS_REGION` (or of `DYNAMODB_ENDPOINT`). */
export function dynamoDbClientFrom(settings: Settings): DynamoDBClient {
  return createDynamoDbClient({
    region: settings.AWS_REGION,
    ...(settings.DYNAMODB_ENDPOINT === undefined ? {} : { endpoint: settings.DYNAMODB_ENDPOINT }),
  });
}

/** Every repository, on DynamoDB (or `DYNAMODB_ENDPOINT`). */
export function repositoriesFrom(settings: Settings): Repositories {
  return createRepositories(createDocumentClient(dynamoDbClientFrom(settings)), settings.SENTINEL_TABLE_PREFIX);
}

/**
 * The repositories of `classes` only, on DynamoDB (or `DYNAMODB_ENDPOINT`): what a Lambda handler
 * builds, so its bundle holds only the repositories it uses.
 */
export function someRepositoriesFrom<K extends keyof Repositories>(settings: Settings, classes: RepositoryClasses<K>): Pick<Repositories, K> {
  return repositoriesOf(createDocumentClient(dynamoDbClientFrom(settings)), settings.SENTINEL_TABLE_PREFIX, classes);
}

/** The chain client; `ROCKET_NODE_URL` and `ROCKET_INDEXER_URL` are required. */
export function chainFrom(settings: Settings, log?: Log): ChainClient {
  const nodeUrl = required(settings, 'ROCKET_NODE_URL');
  const indexerUrl = required(settings, 'ROCKET_INDEXER_URL');
  return createChainClient({
    nodeUrl,
    indexerUrl,
    rps: settings.CHAIN_RPS,
    timeoutMs: settings.CHAIN_TIMEOUT_MS,
    maxRetries: settings.CHAIN_MAX_RETRIES,
    ...(log === undefined ? {} : { logger: log }),
  });
}

/** An SES client (or `SES_ENDPOINT` locally, with dummy credentials that never reach AWS). */
export function sesClientFrom(settings: Settings): SESClient {
  return new SESClient({
    region: settings.AWS_REGION,
    ...(settings.SES_ENDPOINT === undefined
      ? {}
      : { endpoint: settings.SES_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  });
}

/** The SES sender (or `SES_ENDPOINT` locally, with dummy credentials that never reach AWS). */
export function sesSenderFrom(settings: Settings, client: SESClient = sesClientFrom(settings)): SesSender {
  return new SesSender(client, settings.SES_CONFIGURATION_SET === undefined ? {} : { configurationSetName: settings.SES_CONFIGURATION_SET });
}

/** An SQS queue by the URL in `variable`. */
export function sqsQueueFrom<T>(
  settings: Settings,
  variable: 'COLLECT_QUEUE_URL' | 'NOTIFY_QUEUE_URL' | 'REPORT_QUEUE_URL' | 'CHANNEL_QUEUE_URL' | 'REVOCATION_QUEUE_URL' | 'DECISION_QUEUE_URL',
  client: SQSClient = new SQSClient({ region: settings.AWS_REGION }),
): MessageQueue<T> {
  return new SqsQueue<T>(client, required(settings, variable));
}

/** Sets a failed SQS record's backoff (`ChangeMessageVisibility`); the event source's grant covers it. */
export function messageVisibilityFrom(settings: Settings): SqsMessageVisibility {
  return new SqsMessageVisibility(new SQSClient({ region: settings.AWS_REGION }));
}

/** The link secret to sign with, and the ones it replaced (newest first) that still verify. */
export interface LinkSecrets {
  readonly current: string;
  readonly previous: readonly string[];
}

/**
 * The link secrets: `SENTINEL_LINK_SECRET` (and `SENTINEL_LINK_SECRET_PREVIOUS`) locally, else the
 * `AWSCURRENT` and `AWSPREVIOUS` versions of the Secrets Manager secret named by `LINK_SECRET_ARN`,
 * read with `secrets` (by default a client for `AWS_REGION`). A secret never rotated has no
 * `AWSPREVIOUS`; any other failure is a `ConfigError` naming `LINK_SECRET_ARN`. Handlers read them
 * once per cold start (see "Rotating the link secret" in docs/operations.md).
 */
export async function linkSecretsFrom(settings: Settings, secrets?: Pick<SecretsManagerClient, 'send'>): Promise<LinkSecrets> {
  if (settings.SENTINEL_LINK_SECRET !== undefined) {
    return { current: settings.SENTINEL_LINK_SECRET, previous: settings.SENTINEL_LINK_SECRET_PREVIOUS ?? [] };
  }
  if (settings.SENTINEL_LINK_SECRET_PREVIOUS !== undefined) {
    throw new ConfigError('SENTINEL_LINK_SECRET_PREVIOUS', 'applies only with SENTINEL_LINK_SECRET (from LINK_SECRET_ARN the previous secret is its AWSPREVIOUS version)');
  }
  const arn = required(settings, 'LINK_SECRET_ARN');
  const client = secrets ?? new SecretsManagerClient({ region: settings.AWS_REGION });
  const [current, previous] = await Promise.all([secretVersion(client, arn, 'AWSCURRENT'), secretVersion(client, arn, 'AWSPREVIOUS')]);
  if (current === undefined) throw new ConfigError('LINK_SECRET_ARN', 'the secret has no AWSCURRENT version');
  return { current, previous: previous === undefined ? [] : [previous] };
}

/** One staged version of the link secret; `undefined` when the stage does not exist (yet). */
async function secretVersion(
  client: Pick<SecretsManagerClient, 'send'>,
  arn: string,
  stage: 'AWSCURRENT' | 'AWSPREVIOUS',
): Promise<string | undefined> {
  let secret: unknown;
  try {
    ({ SecretString: secret } = await client.send(new GetSecretValueCommand({ SecretId: arn, VersionStage: stage })));
  } catch (error) {
    if (stage === 'AWSPREVIOUS' && error instanceof Error && error.name === 'ResourceNotFoundException') return undefined;
    const reason = describeError(error, { audience: 'log' });
    throw new ConfigError('LINK_SECRET_ARN', `could not read the ${stage} version of the secret (${reason})`, { cause: error });
  }
  if (typeof secret !== 'string' || secret.length < 32) {
    throw new ConfigError('LINK_SECRET_ARN', `the ${stage} version of the secret is missing or shorter than 32 characters`);
  }
  return secret;
}

/**
 * Makes and reads action links under `PUBLIC_BASE_URL`. `revokeAllServed`: whether that endpoint
 * routes `/revoke-all` (the local `serve` does; a deployed stage says so with `REVOKE_ALL_LINKS`,
 * set by the CDK stack that routes it), so revoke-all links are written.
 */
export async function actionLinksFrom(settings: Settings, revokeAllServed = settings.REVOKE_ALL_LINKS): Promise<ActionLinks> {
  const { current, previous } = await linkSecretsFrom(settings);
  return new ActionLinks(new LinkTokenCodec(current, previous), required(settings, 'PUBLIC_BASE_URL'), undefined, revokeAllServed);
}

/** What every public page needs: link reading, the CSRF values of its forms, and its own base URL. */
export interface PageSecurity {
  readonly links: ActionLinks;
  readonly csrf: CsrfTokens;
  readonly publicBaseUrl: string;
}

/** Builds `PageSecurity` from the link secrets (both derive per-purpose keys from them) and `PUBLIC_BASE_URL`. */
export async function pageSecurityFrom(settings: Settings): Promise<PageSecurity> {
  return pageSecurity(await linkSecretsFrom(settings), required(settings, 'PUBLIC_BASE_URL'));
}

/** `PageSecurity` for known secrets and base URL (the local runtime). */
export function pageSecurity({ current, previous }: LinkSecrets, publicBaseUrl: string): PageSecurity {
  return {
    links: new ActionLinks(new LinkTokenCodec(current, previous), publicBaseUrl),
    csrf: new CsrfTokens(current, previous),
    publicBaseUrl,
  };
}

type RequiredSetting =
  | 'ROCKET_NODE_URL'
  | 'ROCKET_INDEXER_URL'
  | 'PUBLIC_BASE_URL'
  | 'LINK_SECRET_ARN'
  | 'COLLECT_QUEUE_URL'
  | 'NOTIFY_QUEUE_URL'
  | 'REPORT_QUEUE_URL'
  | 'CHANNEL_QUEUE_URL'
  | 'REVOCATION_QUEUE_URL'
  | 'DECISION_QUEUE_URL'
  | 'SIGN_REVOCATION_FUNCTION_NAME';

/** A setting a component cannot work without; `ConfigError` naming it when unset. */
export function required(settings: Settings, variable: RequiredSetting): string {
  const value = settings[variable];
  if (value === undefined) throw new ConfigError(variable, 'is required here but not set');
  return value;
}
