import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CreateTableCommand, DescribeTableCommand, DescribeTimeToLiveCommand, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createTables, deleteTables } from '../../../functions/store/createTables';
import { TABLES, tableName } from '../../../functions/store/tableDefinitions';
import { dynamoClient } from '../../support/dynamo';

describe('createTables', () => {
  // First: DynamoDB Local builds an added index only after its expiry jobs for the TTL tables it holds.
  it('adds the indexes and TTL an older existing table lacks', async () => {
    const client = dynamoClient();
    const prefix = `up${randomUUID().slice(0, 8)}-`;
    // An accounts table from before the byNextReport index, and a curves table without TTL.
    const key = (hash: string, range?: string) => [
      { AttributeName: hash, KeyType: 'HASH' as const },
      ...(range === undefined ? [] : [{ AttributeName: range, KeyType: 'RANGE' as const }]),
    ];
    const attributes = (types: Record<string, 'S' | 'N'>) => Object.entries(types).map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType }));
    await client.send(
      new CreateTableCommand({
        TableName: tableName(prefix, 'accounts'),
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: attributes({ address: 'S', shard: 'S', nextDueAt: 'N' }),
        KeySchema: key('address'),
        GlobalSecondaryIndexes: [{ IndexName: 'byNextDue', KeySchema: key('shard', 'nextDueAt'), Projection: { ProjectionType: 'ALL' } }],
      }),
    );
    await client.send(
      new CreateTableCommand({
        TableName: tableName(prefix, 'curves'),
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: attributes({ series: 'S', ts: 'N' }),
        KeySchema: key('series', 'ts'),
      }),
    );
    try {
      const outcomes = await createTables(client, prefix);
      expect(outcomes[tableName(prefix, 'accounts')]).toBe('updated');
      expect(outcomes[tableName(prefix, 'curves')]).toBe('updated');
      expect(outcomes[tableName(prefix, 'snapshots')]).toBe('created');
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName(prefix, 'accounts') }));
      expect((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName).sort()).toEqual(['byBatch', 'byNextDue', 'byNextReport', 'bySlot']);
      const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName(prefix, 'curves') }));
      expect(ttl.TimeToLiveDescription?.AttributeName).toBe('expiresAt');
    } finally {
      await deleteTables(client, prefix);
    }
  }, 90_000);

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
      const indexes = (Table?.GlobalSecondaryIndexes ?? []).map((i) => [
        i.IndexName,
        i.Projection?.ProjectionType,
        [...(i.Projection?.NonKeyAttributes ?? [])].sort(),
      ]);
      const expected = (definition.globalIndexes ?? []).map((i) => [
        i.indexName,
        i.projection.type,
        i.projection.type === 'INCLUDE' ? [...i.projection.attributes].sort() : [],
      ]);
      expect(indexes.sort()).toEqual(expected.sort());
      // No index copies whole items: each projects what its queries read.
      expect(indexes.filter(([, type]) => type === 'ALL')).toEqual([]);
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
