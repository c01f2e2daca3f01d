import { describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { StoreError } from '../../../functions/store/errors';
import { TokenRepository } from '../../../functions/store/tokenRepository';
import { tableName } from '../../../functions/store/tableDefinitions';
import { testTables } from '../../support/testTables';

const T0 = 3_000_000_000_000;

describe('TokenRepository', () => {
  const tables = testTables();
  const repo = (now = T0) => new TokenRepository(tables.client, tables.prefix, { now: () => now });
  const use = { purpose: 'revoke' as const, account: '0xabc', delegate: '0xdef', expiresAt: T0 + 72 * 3_600_000 };

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
    await repo().release('tok-3', 'revoke');
    expect(await repo().consume('tok-3', use)).toEqual({ kind: 'consumed' });
  });

  it('expires the record with the token (TTL in epoch seconds)', async () => {
    await repo().consume('tok-4', use);
    const { Item } = await tables.client.send(new GetCommand({ TableName: tableName(tables.prefix, 'tokens'), Key: { tokenId: 'revoke#tok-4' } }));
    expect(Item).toMatchObject({ purpose: 'revoke', account: '0xabc', delegate: '0xdef', expiresAt: Math.ceil(use.expiresAt / 1000) });
  });

  it('refuses a revoke token without its delegate, writing nothing', async () => {
    const error = await repo()
      .consume('tok-5', { purpose: 'revoke', account: '0xabc', expiresAt: use.expiresAt })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(/delegate/);
    expect(await repo().get('tok-5', 'revoke')).toBeNull();
    expect(await repo().consume('tok-5b', { purpose: 'snooze', account: '0xabc', expiresAt: use.expiresAt })).toEqual({ kind: 'consumed' });
    expect(await repo().get('tok-5b', 'snooze')).toMatchObject({ purpose: 'snooze', delegate: null });
  });

  it('reads a consumed token back until it expires', async () => {
    expect(await repo().get('tok-6', 'revoke')).toBeNull();
    await repo(T0 + 5).consume('tok-6', use);
    expect(await repo(T0 + 6).get('tok-6', 'revoke')).toEqual({
      tokenId: 'tok-6',
      purpose: 'revoke',
      account: '0xabc',
      delegate: '0xdef',
      consumedAt: T0 + 5,
      expiresAt: Math.ceil(use.expiresAt / 1000) * 1000,
      signedAt: null,
      batch: null,
      outcome: null,
    });
    expect(await repo(use.expiresAt + 1_000).get('tok-6', 'revoke')).toBeNull();
    // A revoke-all unit's token names its batch.
    await repo(T0 + 5).consume('tok-6b', { ...use, batch: 'revoke-all-link-id' });
    expect(await repo(T0 + 6).get('tok-6b', 'revoke')).toMatchObject({ batch: 'revoke-all-link-id' });
  });

  it('keeps the outcome of the revocation a consumed token authorized, for its page; not on a token never consumed', async () => {
    const revoked = { kind: 'revoked', sent: true, nonce: 4, transactionSignature: '0xabcdef' } as const;
    expect(await repo(T0 + 1).recordOutcome('tok-9', revoked)).toEqual({ kind: 'not-consumed' });
    expect(await repo().get('tok-9', 'revoke')).toBeNull();
    await repo(T0 + 1).consume('tok-9', use);
    expect(await repo(T0 + 2).recordOutcome('tok-9', revoked)).toEqual({ kind: 'recorded' });
    expect((await repo().get('tok-9', 'revoke'))?.outcome).toEqual({ result: revoked, at: T0 + 2 });
  });

  it('marks a consumed token signed once; a release and a new consume start afresh', async () => {
    await repo(T0 + 1).consume('tok-7', use);
    expect(await repo(T0 + 2).markSigned('tok-7', T0 + 1)).toEqual({ kind: 'marked' });
    expect(await repo().get('tok-7', 'revoke')).toMatchObject({ signedAt: T0 + 2 });
    expect(await repo(T0 + 3).markSigned('tok-7', T0 + 1)).toEqual({ kind: 'already-signed', signedAt: T0 + 2 });

    await repo().release('tok-7', 'revoke');
    expect(await repo(T0 + 4).markSigned('tok-7', T0 + 1)).toEqual({ kind: 'not-consumed' });
    await repo(T0 + 5).consume('tok-7', use);
    expect(await repo().get('tok-7', 'revoke')).toMatchObject({ consumedAt: T0 + 5, signedAt: null });
    // A signer holding the earlier record's consumedAt does not mark the new one.
    expect(await repo(T0 + 6).markSigned('tok-7', T0 + 1)).toEqual({ kind: 'not-consumed' });
    expect(await repo(T0 + 7).markSigned('tok-7', T0 + 5)).toEqual({ kind: 'marked' });
  });

  it('keys each token under its purpose, so a role confined to snooze# items cannot touch a revoke token', async () => {
    await repo(T0 + 1).consume('tok-9', use);
    expect(await repo(T0 + 2).consume('tok-9', { purpose: 'snooze', account: '0xabc', expiresAt: use.expiresAt })).toEqual({ kind: 'consumed' });
    const keys = async (key: string) =>
      (await tables.client.send(new GetCommand({ TableName: tableName(tables.prefix, 'tokens'), Key: { tokenId: key } }))).Item;
    expect(await keys('revoke#tok-9')).toMatchObject({ purpose: 'revoke', delegate: '0xdef' });
    expect(await keys('snooze#tok-9')).toMatchObject({ purpose: 'snooze' });
    expect(await keys('tok-9')).toBeUndefined();
    // Releasing the snooze token leaves the revoke token consumed.
    await repo().release('tok-9', 'snooze');
    expect(await repo().get('tok-9', 'revoke')).toMatchObject({ purpose: 'revoke', consumedAt: T0 + 1 });
    expect(await repo().get('tok-9', 'snooze')).toBeNull();
    const refused = await repo()
      .consume('tok-10', { purpose: 'anything' as 'snooze', account: '0xabc', expiresAt: use.expiresAt })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StoreError);
  });

  it("keeps a refusal only as a consumed token's first outcome, at the same consumption; a refused token is never marked signed", async () => {
    const refused = { kind: 'not-authorized', sent: false, refusal: 'link-stale' } as const;
    expect(await repo(T0 + 1).recordRefusal('tok-11', T0 + 1, 'link-stale')).toEqual({ kind: 'kept' });
    expect(await repo().get('tok-11', 'revoke')).toBeNull();
    await repo(T0 + 1).consume('tok-11', use);
    // Another consumption than the refused one's keeps nothing.
    expect(await repo(T0 + 2).recordRefusal('tok-11', T0, 'link-stale')).toEqual({ kind: 'kept' });
    expect((await repo().get('tok-11', 'revoke'))?.outcome).toBeNull();
    expect(await repo(T0 + 3).recordRefusal('tok-11', T0 + 1, 'link-stale')).toEqual({ kind: 'recorded' });
    expect((await repo().get('tok-11', 'revoke'))?.outcome).toEqual({ result: refused, at: T0 + 3 });
    // The first outcome stays: a second refusal keeps it, and the token cannot be marked signed.
    expect(await repo(T0 + 4).recordRefusal('tok-11', T0 + 1, 'channel-removed')).toEqual({ kind: 'kept' });
    expect(await repo(T0 + 5).markSigned('tok-11', T0 + 1)).toEqual({ kind: 'refused' });
    expect(await repo().get('tok-11', 'revoke')).toMatchObject({ signedAt: null, outcome: { result: refused, at: T0 + 3 } });

    // A signed token keeps its (absent or recorded) outcome.
    await repo(T0 + 1).consume('tok-12', use);
    expect(await repo(T0 + 2).markSigned('tok-12', T0 + 1)).toEqual({ kind: 'marked' });
    expect(await repo(T0 + 3).recordRefusal('tok-12', T0 + 1, 'already-used')).toEqual({ kind: 'kept' });
    expect(await repo().get('tok-12', 'revoke')).toMatchObject({ signedAt: T0 + 2, outcome: null });
  });

  it('reads a token whose refusal was stored without a reason (older items)', async () => {
    await repo(T0 + 1).consume('tok-13', use);
    expect(await repo(T0 + 2).recordOutcome('tok-13', { kind: 'not-authorized', sent: false })).toEqual({ kind: 'recorded' });
    expect((await repo().get('tok-13', 'revoke'))?.outcome).toEqual({ result: { kind: 'not-authorized', sent: false }, at: T0 + 2 });
  });

  it('lets exactly one of concurrent signers mark a token', async () => {
    await repo(T0 + 1).consume('tok-8', use);
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => repo(T0 + 2).markSigned('tok-8', T0 + 1)));
    expect(outcomes.filter((o) => o.kind === 'marked')).toHaveLength(1);
  });
});
