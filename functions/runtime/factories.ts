import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SESClient } from '@aws-sdk/client-ses';
import { SQSClient } from '@aws-sdk/client-sqs';
import { createChainClient } from '../chain/chainClient';
import type { ChainClient } from '../chain/ports';
import { ConfigError, type Settings } from '../config/settings';
import type { RequirableSetting } from '../config/handlerCatalog';
import { SesSender } from '../mail/send/sesSender';
import type { MessageQueue } from '../queue/messageQueue';
import { SqsQueue } from '../queue/sqsQueue';
import { SqsMessageVisibility } from '../queue/sqsMessageVisibility';
import { createDocumentClient, createDynamoDbClient } from '../store/documentClient';
import { createRepositories, type Repositories } from '../store/repositories';
import { repositoriesOf, type RepositoryClasses } from '../store/repositoriesOf';
import type { Log } from '../shared/observability';

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
    ...(settings.SES_ENDPOINT === undefined ? {} : { endpoint: settings.SES_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  });
}

/** The SES sender (or `SES_ENDPOINT` locally, with dummy credentials that never reach AWS). */
export function sesSenderFrom(settings: Settings, client: SESClient = sesClientFrom(settings)): SesSender {
  return new SesSender(client, settings.SES_CONFIGURATION_SET === undefined ? {} : { configurationSetName: settings.SES_CONFIGURATION_SET });
}

/** An SQS queue by the URL in `variable`. */
export function sqsQueueFrom<T>(
  settings: Settings,
  variable: Extract<RequirableSetting, `${string}_QUEUE_URL`>,
  client: SQSClient = new SQSClient({ region: settings.AWS_REGION }),
): MessageQueue<T> {
  return new SqsQueue<T>(client, required(settings, variable));
}

/** Sets a failed SQS record's backoff (`ChangeMessageVisibility`); the event source's grant covers it. */
export function messageVisibilityFrom(settings: Settings): SqsMessageVisibility {
  return new SqsMessageVisibility(new SQSClient({ region: settings.AWS_REGION }));
}

/** A setting a component cannot work without; `ConfigError` naming it when unset. */
export function required(settings: Settings, variable: RequirableSetting): string {
  const value = settings[variable];
  if (value === undefined) throw new ConfigError(variable, 'is required here but not set');
  return value;
}
