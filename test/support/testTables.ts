import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createTables, deleteTables } from '../../functions/store/createTables';
import { documentClient, dynamoClient } from './dynamo';

/** Tables of one test file: pass `prefix` and `client` to the repositories. */
export interface TestTables {
  /** Unique to this file, e.g. `t3f9a1c2e-`. */
  readonly prefix: string;
  readonly client: DynamoDBDocumentClient;
}

/**
 * Call once at the top of a test file: creates every table of `TABLES` under a prefix unique
 * to the file before its tests (in the run's DynamoDB Local) and deletes them afterwards.
 */
export function testTables(): TestTables {
  const prefix = `t${randomUUID().slice(0, 8)}-`;
  beforeAll(async () => {
    await createTables(dynamoClient(), prefix);
  });
  afterAll(async () => {
    await deleteTables(dynamoClient(), prefix);
  });
  return {
    prefix,
    get client() {
      return documentClient();
    },
  };
}
