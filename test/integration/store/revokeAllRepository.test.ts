import { describe, expect, it } from 'vitest';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { REVOKE_ALL_KEY_PREFIX, REVOKE_ALL_REQUEST_ATTRIBUTES, RevokeAllRepository } from '../../../functions/store/revokeAllRepository';
import { tableName } from '../../../functions/store/tableDefinitions';
import { testTables } from '../../support/testTables';

const T0 = 3_000_000_000_000;
const BATCH = { account: '0x00000000000000000000000000000000000000a1', expiresAt: T0 + 3_600_000 };
const BOT = '0x00000000000000000000000000000000000000b1';

/**
 * A revoke-all batch keeps the page's part (each delegate's queued attempts, `units`) apart from the
 * worker's (each attempt's result, `results`): the page's role may name only the first
 * (`REVOKE_ALL_REQUEST_ATTRIBUTES`), so a flaw in the page cannot record a result.
 */
describe('RevokeAllRepository', () => {
  const tables = testTables();
  const repo = new RevokeAllRepository(tables.client, tables.prefix, { now: () => T0 });
  const stored = async (tokenId: string) =>
    (await tables.client.send(new GetCommand({ TableName: tableName(tables.prefix, 'tokens'), Key: { tokenId: REVOKE_ALL_KEY_PREFIX + tokenId } }))).Item;

  it('queues an attempt in units, records its result in results, and reads the two as one unit', async () => {
    expect(await repo.submit('t-one', BATCH, BOT)).toEqual({ kind: 'queued', attempt: 1 });
    expect((await repo.get('t-one'))?.units[BOT]).toEqual({ state: 'queued', attempt: 1, at: T0 });
    expect(await repo.submit('t-one', BATCH, BOT)).toMatchObject({ kind: 'not-submittable', unit: { state: 'queued' } });

    const busy = { state: 'done', attempt: 1, at: T0 + 1, outcome: { kind: 'busy', sent: false } } as const;
    expect(await repo.finish('t-one', BOT, busy)).toEqual({ kind: 'recorded' });
    // The same attempt's result once: a redelivered job's is stale.
    expect(await repo.finish('t-one', BOT, { ...busy, at: T0 + 2 })).toEqual({ kind: 'stale' });
    expect((await repo.get('t-one'))?.units[BOT]).toEqual(busy);
    const item = await stored('t-one');
    expect(item?.['units']).toEqual({ [BOT]: { state: 'queued', attempt: 1, at: T0 } });
    expect(item?.['results']).toEqual({ [BOT]: busy });

    // Nothing was sent: a retry queues attempt 2, which reads as queued until its own result.
    expect(await repo.submit('t-one', BATCH, BOT)).toEqual({ kind: 'queued', attempt: 2 });
    expect((await repo.get('t-one'))?.units[BOT]).toEqual({ state: 'queued', attempt: 2, at: T0 });
    const gone = { state: 'done', attempt: 2, at: T0 + 3, outcome: { kind: 'already-revoked', sent: false } } as const;
    expect(await repo.finish('t-one', BOT, gone)).toEqual({ kind: 'recorded' });
    expect((await repo.get('t-one'))?.units[BOT]).toEqual(gone);
    // A late result of attempt 1 changes nothing.
    expect(await repo.finish('t-one', BOT, busy)).toEqual({ kind: 'stale' });
    expect(await repo.submit('t-one', BATCH, BOT)).toMatchObject({ kind: 'not-submittable', unit: gone });
  });

  it('a result written where the page may write (units, or an item from before the split) is not trusted: the unit reads unknown and is never queued again', async () => {
    expect(await repo.submit('t-forged', BATCH, BOT)).toMatchObject({ kind: 'queued' });
    // What the page's grant allows it to send: an update naming only its attributes, here forging "revoked".
    const forged = { state: 'done', attempt: 1, at: T0, outcome: { kind: 'already-revoked', sent: false } };
    const update = {
      TableName: tableName(tables.prefix, 'tokens'),
      Key: { tokenId: REVOKE_ALL_KEY_PREFIX + 't-forged' },
      UpdateExpression: 'SET units.#d = :unit',
      ExpressionAttributeNames: { '#d': BOT },
      ExpressionAttributeValues: { ':unit': forged },
    };
    expect(['tokenId', 'units'].every((a) => (REVOKE_ALL_REQUEST_ATTRIBUTES as readonly string[]).includes(a))).toBe(true);
    await tables.client.send(new UpdateCommand(update));
    expect((await repo.get('t-forged'))?.units[BOT]).toMatchObject({ state: 'unknown', attempt: 1, message: expect.stringContaining('check the keys') });
    expect(await repo.submit('t-forged', BATCH, BOT)).toMatchObject({ kind: 'not-submittable', unit: { state: 'unknown' } });
  });

  it('records no result for a batch that is gone (expired or never opened), rather than creating one', async () => {
    expect(await repo.finish('t-none', BOT, { state: 'unknown', attempt: 1, at: T0, message: 'no answer' })).toEqual({ kind: 'stale' });
    expect(await stored('t-none')).toBeUndefined();
  });
});
