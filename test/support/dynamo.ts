import { inject } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient, createDynamoDbClient } from '../../functions/store/documentClient';

let raw: DynamoDBClient | undefined;
let doc: DynamoDBDocumentClient | undefined;

/** The low-level client for the run's DynamoDB Local (one per test file). */
export function dynamoClient(): DynamoDBClient {
  raw ??= createDynamoDbClient({ endpoint: inject('dynamoEndpoint') });
  return raw;
}

/** The document client for the run's DynamoDB Local, configured as the repositories expect. */
export function documentClient(): DynamoDBDocumentClient {
  doc ??= createDocumentClient(dynamoClient());
  return doc;
}
