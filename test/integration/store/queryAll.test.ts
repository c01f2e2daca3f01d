import { describe, expect, it } from 'vitest';
import { queryAll } from '../../../functions/store/queryAll';
import { SHARDS, shardOf } from '../../../functions/store/shard';
import { batchWriteAll } from '../../../functions/store/batchWrite';
import { tableName } from '../../../functions/store/tableDefinitions';
import { testTables } from '../../support/testTables';
import { testAddress } from '../../support/store/accountFixture';

describe('queryAll', () => {
  const tables = testTables();

  it('follows LastEvaluatedKey across pages, and stops at the limit', async () => {
    const points = Array.from({ length: 23 }, (_, i) => ({ ts: 3_000_000_000_000 + i, equity: `${i}` }));
    const table = tableName(tables.prefix, 'curves');
    await batchWriteAll(
      tables.client,
      table,
      points.map((p) => ({ PutRequest: { Item: { series: '0xPages#1m', ...p } } })),
      'test',
    );
    const input = {
      TableName: table,
      KeyConditionExpression: 'series = :s',
      ExpressionAttributeValues: { ':s': '0xPages#1m' },
      Limit: 5,
    };
    const all: unknown[] = [];
    for await (const item of queryAll(tables.client, input, 'test')) all.push(item);
    expect(all.map((item) => (item as { equity: string }).equity)).toEqual(points.map((p) => p.equity));
    const some: unknown[] = [];
    for await (const item of queryAll(tables.client, input, 'test', 7)) some.push(item);
    expect(some).toHaveLength(7);
  });
});

describe('shardOf', () => {
  it('is stable, ignores case, and spreads addresses over every shard', () => {
    const address = testAddress(42);
    expect(shardOf(address)).toBe(shardOf(address.toLowerCase()));
    const counts = new Map<string, number>();
    for (let i = 0; i < 800; i++) counts.set(shardOf(testAddress(i, 9)), (counts.get(shardOf(testAddress(i, 9))) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual([...SHARDS].sort());
    for (const count of counts.values()) expect(count).toBeGreaterThan(50);
  });
});
