import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { AccountsRepository } from '../../../functions/store/accountsRepository';
import { announcementsPartition, KnownDelegatesRepository, knownKeysPartition } from '../../../functions/store/knownDelegatesRepository';
import { tableName } from '../../../functions/store/tableDefinitions';
import { moveLegacyKnownKeys } from '../../../functions/services/knownKeys/moveLegacyKnownKeys';
import { accountRecord, testAddress } from '../../support/store/accountFixture';
import { testTables } from '../../support/testTables';

const tables = testTables();
const repo = () => new KnownDelegatesRepository(tables.client, tables.prefix);
const KEY_A = testAddress(101, 7);
const KEY_B = testAddress(102, 7);

/** Items under the account itself, as an earlier version kept them, or as collect's grants (BatchWriteItem on `0x…` partitions) could still write them. */
async function underTheAccount(account: string, items: Record<string, unknown>[]): Promise<void> {
  await tables.client.send(
    new BatchWriteCommand({
      RequestItems: { [tableName(tables.prefix, 'delegates')]: items.map((Item) => ({ PutRequest: { Item: { address: account, ...Item } } })) },
    }),
  );
}

describe('KnownDelegatesRepository', () => {
  it('keeps known keys under known#<account> (put once: the first reason stays) and announcements under expect#<account>', async () => {
    const account = testAddress(1, 7);
    await repo().recordKeys(account, { known: [KEY_A], source: 'baseline', baselineAt: 1_000, at: 1_000 });
    await repo().recordKeys(account, { known: [KEY_A, KEY_B], source: 'announced', at: 2_000 });
    await repo().announce(account, { delegate: KEY_B, announcedAt: 2_000, expiresAt: 9_000 });
    const state = await repo().read(account);
    expect(state.baselineAt).toBe(1_000);
    expect([...state.known].sort()).toEqual([KEY_A.toLowerCase(), KEY_B.toLowerCase()].sort());
    expect(state.knownKeys.find((k) => k.delegate === KEY_A)).toEqual({ delegate: KEY_A, at: 1_000, source: 'baseline' });
    expect(state.announcements).toEqual([{ delegate: KEY_B, announcedAt: 2_000, expiresAt: 9_000 }]);
    expect(knownKeysPartition(account)).toBe(`known#${account}`);
    expect(announcementsPartition(account)).toBe(`expect#${account}`);
  });

  it("with collect's grants, forge an announcement under the account: nobody honours it (the signer and the protection service read announcements here)", async () => {
    const account = testAddress(2, 7);
    await underTheAccount(account, [{ delegate: `#expect#${KEY_A.toLowerCase()}`, kind: 'expect', key: KEY_A, at: 1_000, expiresAt: Date.now() + 3_600_000 }]);
    const state = await repo().read(account);
    expect(state.announcements).toEqual([]);
    expect(state.unmovedAnnouncements).toHaveLength(1);
    expect(state.known.size).toBe(0);
  });

  it('reads known keys an earlier version kept under the account; the one-time move brings them and the announcements over and deletes the old items', async () => {
    const accounts = new AccountsRepository(tables.client, tables.prefix);
    const account = testAddress(3, 7);
    await accounts.create(accountRecord({ address: account }));
    const until = Date.now() + 3_600_000;
    await underTheAccount(account, [
      { delegate: `#known#${KEY_A.toLowerCase()}`, kind: 'known', key: KEY_A, at: 1_000, source: 'baseline' },
      { delegate: `#expect#${KEY_B.toLowerCase()}`, kind: 'expect', key: KEY_B, at: 1_000, expiresAt: until },
      { delegate: '#baseline', kind: 'baseline', at: 1_000 },
    ]);
    const before = await repo().read(account);
    expect([...before.known]).toEqual([KEY_A.toLowerCase()]);
    expect(before.announcements).toEqual([]);

    const moved = await moveLegacyKnownKeys({ accounts, knownDelegates: repo() });
    expect(moved).toEqual({ accounts: 1, known: 1, announcements: 1 });
    const after = await repo().read(account);
    expect(after).toMatchObject({ baselineAt: 1_000, unmovedAnnouncements: [], announcements: [{ delegate: KEY_B, announcedAt: 1_000, expiresAt: until }] });
    expect(after.knownKeys).toEqual([{ delegate: KEY_A, at: 1_000, source: 'baseline' }]);
    expect(await moveLegacyKnownKeys({ accounts, knownDelegates: repo() })).toEqual({ accounts: 0, known: 0, announcements: 0 });
  });
});
