import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface DynamoClientOptions {
  /** A DynamoDB endpoint such as DynamoDB Local; the AWS default when omitted. */
  readonly endpoint?: string;
  readonly region?: string;
}

/**
 * A low-level client. With an explicit `endpoint` (DynamoDB Local) it uses fixed dummy
 * credentials, which DynamoDB Local accepts and which never reach AWS.
 */
export function createDynamoDbClient(options: DynamoClientOptions = {}): DynamoDBClient {
  return new DynamoDBClient({
    region: options.region ?? 'us-east-1',
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  });
}

/** The document client every repository takes: plain JS values in and out, `undefined` fields dropped. */
export function createDocumentClient(client: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
}
