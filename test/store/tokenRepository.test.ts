import { describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { TokenRepository } from '../../functions/store/tokenRepository';
import { tableName } from '../../functions/store/tableDefinitions';
import { testTables } from '../support/testTables';

const T0 = 3_000_000_000_000;

describe('TokenRepository', () => {
  const tables = testTables();
  const repo = (now = T0) => new TokenRepository(tables.client, tables.prefix, { now: () => now });
  const use = { purpose: 'revoke', account: '0xabc', expiresAt: T0 + 72 * 3_600_000 };

  it('consumes a token once; the second use says when the first was', async () => {
    expect(await repo(T0 + 10).consume('tok-1', use)).toEqual({ kind: 'consumed' });
    expect(await repo(T0 + 20).consume('tok-1', use)).toEqual({ kind: 'already-used', consumedAt: T0 + 10 });
  });

  it('lets exactly one of concurrent consumers through', async () => {
    const outcomes = await Promise.all([1, 2, 3, 4, 5].map(() => repo().consume('tok-2', use)));
    expect(outcomes.filter((o) => o.kind === 'consumed')).toHaveLength(1);
  });

  it('makes a released token usable again', async () => {
    await repo().consume('tok-3', use);
    await repo().release('tok-3');
    expect(await repo().consume('tok-3', use)).toEqual({ kind: 'consumed' });
  });

  it('expires the record with the token (TTL in epoch seconds)', async () => {
    await repo().consume('tok-4', use);
    const { Item } = await tables.client.send(new GetCommand({ TableName: tableName(tables.prefix, 'tokens'), Key: { tokenId: 'tok-4' } }));
    expect(Item).toMatchObject({ purpose: 'revoke', account: '0xabc', expiresAt: Math.ceil(use.expiresAt / 1000) });
  });
});
