import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESClient } from '@aws-sdk/client-ses';
import { SQSClient } from '@aws-sdk/client-sqs';
import { createChainClient } from '../chain/chainClient';
import type { ChainClient } from '../chain/ports';
import { ConfigError, type Settings } from '../config/settings';
import { ActionLinks } from '../links/actionLinks';
import { LinkTokenCodec } from '../links/linkToken';
import { SesSender } from '../mail/sesSender';
import type { MessageQueue } from '../queue/messageQueue';
import { SqsQueue } from '../queue/sqsQueue';
import { createDocumentClient, createDynamoDbClient } from '../store/documentClient';
import { createRepositories, type Repositories } from '../store/repositories';
import type { Log } from '../shared/observability';
import { CsrfTokens } from '../web/csrfToken';

/*
 * Builders of the adapters a handler needs, from validated settings. Handlers call them once
 * per cold start; the local runtime and the CLI call the same ones, pointed at local services.
 */

/** Every repository, on DynamoDB (or `DYNAMODB_ENDPOINT`). */
export function repositoriesFrom(settings: Settings): Repositories {
  const client = createDynamoDbClient({
    region: settings.AWS_REGION,
    ...(settings.DYNAMODB_ENDPOINT === undefined ? {} : { endpoint: settings.DYNAMODB_ENDPOINT }),
  });
  return createRepositories(createDocumentClient(client), settings.SENTINEL_TABLE_PREFIX);
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
    maxRetries: 3,
    ...(log === undefined ? {} : { logger: log }),
  });
}

/** The SES sender (or `SES_ENDPOINT` locally, with dummy credentials that never reach AWS). */
export function sesSenderFrom(settings: Settings): SesSender {
  const client = new SESClient({
    region: settings.AWS_REGION,
    ...(settings.SES_ENDPOINT === undefined
      ? {}
      : { endpoint: settings.SES_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  });
  return new SesSender(client, settings.SES_CONFIGURATION_SET === undefined ? {} : { configurationSetName: settings.SES_CONFIGURATION_SET });
}

/** An SQS queue by the URL in `variable`. */
export function sqsQueueFrom<T>(settings: Settings, variable: 'COLLECT_QUEUE_URL' | 'NOTIFY_QUEUE_URL'): MessageQueue<T> {
  return new SqsQueue<T>(new SQSClient({ region: settings.AWS_REGION }), required(settings, variable));
}

/**
 * The link-token secret: `SENTINEL_LINK_SECRET` locally, else the Secrets Manager secret named by
 * `LINK_SECRET_ARN`, read with `secrets` (by default a client for `AWS_REGION`). Handlers read it
 * once per cold start (see "Rotating the link secret" in docs/operations.md).
 */
export async function linkSecretFrom(settings: Settings, secrets?: Pick<SecretsManagerClient, 'send'>): Promise<string> {
  if (settings.SENTINEL_LINK_SECRET !== undefined) return settings.SENTINEL_LINK_SECRET;
  const arn = required(settings, 'LINK_SECRET_ARN');
  const client = secrets ?? new SecretsManagerClient({ region: settings.AWS_REGION });
  const { SecretString: secret } = await client.send(new GetSecretValueCommand({ SecretId: arn }));
  if (typeof secret !== 'string' || secret.length < 32) {
    throw new ConfigError('LINK_SECRET_ARN', 'the secret is missing or shorter than 32 characters');
  }
  return secret;
}

/** Makes and reads action links under `PUBLIC_BASE_URL`. */
export async function actionLinksFrom(settings: Settings): Promise<ActionLinks> {
  return new ActionLinks(new LinkTokenCodec(await linkSecretFrom(settings)), required(settings, 'PUBLIC_BASE_URL'));
}

/** What every public page needs: link reading, the CSRF values of its forms, and its own base URL. */
export interface PageSecurity {
  readonly links: ActionLinks;
  readonly csrf: CsrfTokens;
  readonly publicBaseUrl: string;
}

/** Builds `PageSecurity` from the link secret (both derive per-purpose keys from it) and `PUBLIC_BASE_URL`. */
export async function pageSecurityFrom(settings: Settings): Promise<PageSecurity> {
  return pageSecurity(await linkSecretFrom(settings), required(settings, 'PUBLIC_BASE_URL'));
}

/** `PageSecurity` for a known secret and base URL (the local runtime). */
export function pageSecurity(secret: string, publicBaseUrl: string): PageSecurity {
  return { links: new ActionLinks(new LinkTokenCodec(secret), publicBaseUrl), csrf: new CsrfTokens(secret), publicBaseUrl };
}

type RequiredSetting = 'ROCKET_NODE_URL' | 'ROCKET_INDEXER_URL' | 'PUBLIC_BASE_URL' | 'LINK_SECRET_ARN' | 'COLLECT_QUEUE_URL' | 'NOTIFY_QUEUE_URL' | 'SIGN_REVOCATION_FUNCTION_NAME';

/** A setting a component cannot work without; `ConfigError` naming it when unset. */
export function required(settings: Settings, variable: RequiredSetting): string {
  const value = settings[variable];
  if (value === undefined) throw new ConfigError(variable, 'is required here but not set');
  return value;
}
