import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DescribeTableCommand, DescribeTimeToLiveCommand, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createTables, deleteTables } from '../../functions/store/createTables';
import { TABLES, tableName } from '../../functions/store/tableDefinitions';
import { dynamoClient } from '../support/dynamo';

describe('createTables', () => {
  it('creates every defined table with its indexes and TTL, is idempotent, and deleteTables removes them', async () => {
    const client = dynamoClient();
    const prefix = `ct${randomUUID().slice(0, 8)}-`;
    const first = await createTables(client, prefix);
    expect(Object.values(first)).toEqual(Object.values(TABLES).map(() => 'created'));

    for (const definition of Object.values(TABLES)) {
      const name = tableName(prefix, definition.id);
      const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
      expect(Table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
      expect(Table?.KeySchema?.[0]).toEqual({ AttributeName: definition.partitionKey.name, KeyType: 'HASH' });
      const indexes = (Table?.GlobalSecondaryIndexes ?? []).map((i) => [i.IndexName, i.Projection?.ProjectionType]);
      expect(indexes.sort()).toEqual((definition.globalIndexes ?? []).map((i) => [i.indexName, 'ALL']).sort());
      const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: name }));
      expect(ttl.TimeToLiveDescription?.AttributeName).toBe(definition.ttlAttribute);
    }

    const second = await createTables(client, prefix);
    expect(Object.values(second)).toEqual(Object.values(TABLES).map(() => 'existed'));

    await deleteTables(client, prefix);
    const { TableNames } = await client.send(new ListTablesCommand({}));
    expect((TableNames ?? []).filter((n) => n.startsWith(prefix))).toEqual([]);
  });
});
