import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { createDocumentClient, createDynamoDbClient } from '../../../functions/store/documentClient';
import { AccountScheduleRepository } from '../../../functions/store/accountScheduleRepository';
import { AccountsRepository } from '../../../functions/store/accountsRepository';
import { shardOf } from '../../../functions/store/shard';
import { StoreError } from '../../../functions/store/errors';
import { tableName } from '../../../functions/store/tableDefinitions';
import { testTables } from '../../support/testTables';
import { slotMinute } from '../../../functions/domain/schedule';
import type { Interval } from '../../../functions/domain/interval';
import { accountRecord, testAddress } from '../../support/store/accountFixture';

const T0 = 1_700_000_000_000;
const HOUR = 3_600_000;

describe('AccountsRepository: one account', () => {
  const tables = testTables();
  const repo = () => new AccountsRepository(tables.client, tables.prefix);
  const schedule = () => new AccountScheduleRepository(tables.client, tables.prefix);

  it('creates once, then reports that it exists, and reads back what was written', async () => {
    const account = accountRecord({ address: testAddress(1), label: 'main', signer: 'env:OWNER_KEY' });
    expect(await repo().create(account)).toEqual({ kind: 'created' });
    expect(await repo().create({ ...account, label: 'other' })).toEqual({ kind: 'exists' });
    expect(await repo().get(account.address)).toEqual(account);
    expect(await repo().get(testAddress(999))).toBeNull();
  });

  it('refuses an invalid account with an error naming the field, and writes nothing', async () => {
    const bad = accountRecord({ address: testAddress(2), reportAt: '25:00' });
    await expect(repo().create(bad)).rejects.toThrow(StoreError);
    await expect(repo().create(bad)).rejects.toThrow(/reportAt/);
    expect(await repo().get(bad.address)).toBeNull();
  });

  it('updates settings without touching the collection state', async () => {
    const account = accountRecord({
      address: testAddress(3),
      status: 'stale',
      statusReason: 'no new points',
      consecutiveEmptyPolls: 3,
      consecutiveErrors: 1,
    });
    await repo().create(account);
    const outcome = await repo().updateSettings(account.address, { interval: '15m', emails: ['a@example.com', 'b@example.com'], label: null });
    expect(outcome).toEqual({
      kind: 'updated',
      account: { ...account, interval: '15m', emails: ['a@example.com', 'b@example.com'], label: null },
    });
    expect(await repo().updateSettings(testAddress(998), { label: 'x' })).toEqual({ kind: 'not-found' });
    // @ts-expect-error the address is not a setting
    await expect(repo().updateSettings(account.address, { address: testAddress(4) })).rejects.toThrow(StoreError);
  });

  it('an update naming one field leaves every other setting as stored, none reset to its default', async () => {
    const account = accountRecord({
      address: testAddress(5),
      delegateWatch: '15m',
      killSwitch: 25,
      killSwitchConfirm: 'now',
      keepDelegates: [testAddress(6)],
      killSwitchWebSessions: 'revoke',
      killSwitchDryRun: true,
      revokeUnknown: 'all',
    });
    await repo().create(account);
    // A collect's extra poll writes only the next poll time; a CLI update only the settings given.
    expect(await repo().updateSettings(account.address, { nextDueAt: T0 + HOUR })).toEqual({ kind: 'updated', account: { ...account, nextDueAt: T0 + HOUR } });
    expect(await repo().updateSettings(account.address, { label: 'x' })).toEqual({
      kind: 'updated',
      account: { ...account, nextDueAt: T0 + HOUR, label: 'x' },
    });
    expect(await repo().get(account.address)).toEqual({ ...account, nextDueAt: T0 + HOUR, label: 'x' });
  });

  it('removes an account', async () => {
    const account = accountRecord({ address: testAddress(5) });
    await repo().create(account);
    expect(await repo().remove(account.address)).toEqual({ kind: 'removed' });
    expect(await repo().remove(account.address)).toEqual({ kind: 'not-found' });
    expect(await repo().get(account.address)).toBeNull();
  });

  it('claims a pending poll exactly once, even when claims race, and the account leaves the pending index', async () => {
    const account = accountRecord({ address: testAddress(6), nextDueAt: T0 });
    await repo().create(account);
    const claims = await Promise.all(Array.from({ length: 5 }, () => schedule().claimPending(account, T0)));
    expect(claims.filter((c) => c.kind === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c.kind === 'lost')).toHaveLength(4);
    expect((await repo().get(account.address))?.nextDueAt).toBeNull();
    expect((await schedule().queryPending(T0 + HOUR, 100)).map((a) => a.address)).not.toContain(account.address);
    expect(await schedule().claimPending(accountRecord({ address: testAddress(997) }), T0)).toEqual({ kind: 'lost' });
  });

  it('finds an account in the schedule index by its cadence and minute, and moves it when the interval or watch changes', async () => {
    const account = accountRecord({ address: testAddress(7), interval: '1h', delegateWatch: null, nextDueAt: null });
    await repo().create(account);
    const minute = slotMinute(account.address, '1h');
    const inSlot = async (cadence: Interval, ranges: 'all' | [number, number][]) =>
      (await schedule().querySlots(cadence, ranges)).some((a) => a.address === account.address);
    expect(await inSlot('1h', [[minute, minute]])).toBe(true);
    expect(await inSlot('1h', 'all')).toBe(true);
    expect(await inSlot('1h', [[minute + 1, 59]])).toBe(false);
    await repo().updateSettings(account.address, { delegateWatch: '5m' });
    expect(await inSlot('1h', 'all')).toBe(false);
    expect(await inSlot('5m', [[slotMinute(account.address, '5m'), slotMinute(account.address, '5m')]])).toBe(true);
    await repo().updateSettings(account.address, { interval: '1m' });
    expect(await inSlot('5m', 'all')).toBe(false);
    expect(await inSlot('1m', [[0, 0]])).toBe(true);
    expect((await repo().get(account.address))?.delegateWatch).toBe('5m');
  });

  it("keeps the delegate watch's mark out of the record, shows it in the schedule index, and drops it on a settings change", async () => {
    const account = accountRecord({ address: testAddress(14), interval: '1h', delegateWatch: '5m', nextDueAt: null });
    await repo().create(account);
    const entry = async () => (await schedule().querySlots('5m', 'all')).find((a) => a.address === account.address);
    expect((await entry())?.delegateMark).toBeNull();
    expect(await repo().setDelegateMark(account.address, 'v1:-:00112233445566778899aabbccddeeff')).toEqual({ kind: 'set' });
    expect(await entry()).toEqual({
      address: account.address,
      interval: '1h',
      delegateWatch: '5m',
      nextDueAt: null,
      delegateMark: 'v1:-:00112233445566778899aabbccddeeff',
    });
    expect(await repo().get(account.address)).toEqual(account);
    await repo().updateSettings(account.address, { expiryWarnDays: [2] });
    expect((await entry())?.delegateMark).toBeNull();
    expect(await repo().setDelegateMark(testAddress(998), 'v1:-:00112233445566778899aabbccddeeff')).toEqual({ kind: 'not-found' });
  });

  it('moves the dispatcher cursor only from the value it holds', async () => {
    const cursor = await schedule().dispatchCursor();
    expect(await schedule().advanceDispatchCursor(cursor, 100)).toEqual({ kind: 'advanced' });
    expect(await schedule().advanceDispatchCursor(cursor, 101)).toEqual({ kind: 'lost' });
    const races = await Promise.all([schedule().advanceDispatchCursor(100, 102), schedule().advanceDispatchCursor(100, 103)]);
    expect(races.filter((r) => r.kind === 'advanced')).toHaveLength(1);
    expect([102, 103]).toContain(await schedule().dispatchCursor());
    expect((await repo().list()).map((a) => a.address)).not.toContain('#dispatch');
  });

  it('records health without touching the settings or schedule', async () => {
    const account = accountRecord({ address: testAddress(9), label: 'desk', nextDueAt: T0 + HOUR, nextReportAt: T0 + 2 * HOUR });
    await repo().create(account);
    const health = { status: 'stale' as const, statusReason: 'no new point in 3 polls', consecutiveErrors: 0, consecutiveEmptyPolls: 3 };
    expect(await repo().recordHealth(account.address, health)).toEqual({ kind: 'recorded' });
    expect(await repo().get(account.address)).toEqual({ ...account, ...health });
    expect(await repo().recordHealth(testAddress(995), health)).toEqual({ kind: 'not-found' });
  });

  it('records a failure and then the recovery, each replacing the last health', async () => {
    const account = accountRecord({ address: testAddress(10) });
    await repo().create(account);
    const failing = { status: 'failing' as const, statusReason: 'HTTP 500', consecutiveErrors: 3, consecutiveEmptyPolls: 1 };
    expect(await repo().recordHealth(account.address, failing)).toEqual({ kind: 'recorded' });
    expect(await repo().get(account.address)).toEqual({ ...account, ...failing });

    const recovered = { status: 'ok' as const, statusReason: null, consecutiveErrors: 0, consecutiveEmptyPolls: 0 };
    expect(await repo().recordHealth(account.address, recovered)).toEqual({ kind: 'recorded' });
    expect(await repo().get(account.address)).toEqual({ ...account, ...recovered });
  });

  it('refuses health that is out of shape or carries other fields, and writes nothing', async () => {
    const account = accountRecord({ address: testAddress(11) });
    await repo().create(account);
    const health = { status: 'ok' as const, statusReason: null, consecutiveErrors: 0, consecutiveEmptyPolls: 0 };
    await expect(repo().recordHealth(account.address, { ...health, consecutiveErrors: -1 })).rejects.toThrow(/consecutiveErrors/);
    // @ts-expect-error the schedule is not part of the health
    await expect(repo().recordHealth(account.address, { ...health, nextDueAt: T0 })).rejects.toThrow(StoreError);
    expect(await repo().get(account.address)).toEqual(account);
  });

  it('reads, lists and updates an item written before the cursor moved to the snapshots', async () => {
    const account = accountRecord({ address: testAddress(12), nextDueAt: T0 - HOUR, status: 'stale', statusReason: 'no new points' });
    const legacy = { cursorMs: T0 - 2 * HOUR, lastPolledAt: T0 - HOUR, lastSuccessAt: T0 - 3 * HOUR };
    // Written before the schedule index and the delegate watch: no slot attributes, no delegateWatch.
    const { delegateWatch: _watch, ...older } = account;
    await tables.client.send(
      new PutCommand({ TableName: tableName(tables.prefix, 'accounts'), Item: { ...older, ...legacy, shard: shardOf(account.address) } }),
    );
    expect(await repo().get(account.address)).toEqual(account);
    expect((await schedule().queryPending(T0, 100)).find((a) => a.address === account.address)).toEqual({
      address: account.address,
      interval: account.interval,
      delegateWatch: account.delegateWatch,
      nextDueAt: account.nextDueAt,
    });
    expect(await schedule().claimPending(account, T0 - HOUR)).toEqual({ kind: 'claimed' });
    expect((await schedule().querySlots('5m', 'all')).map((a) => a.address)).toContain(account.address);
    Object.assign(account, { nextDueAt: null });
    expect(await repo().updateSettings(account.address, { label: 'legacy' })).toEqual({ kind: 'updated', account: { ...account, label: 'legacy' } });
    const health = { status: 'ok' as const, statusReason: null, consecutiveErrors: 0, consecutiveEmptyPolls: 0 };
    expect(await repo().recordHealth(account.address, health)).toEqual({ kind: 'recorded' });
    expect(await repo().get(account.address)).toEqual({ ...account, label: 'legacy', ...health });
  });

  it('sets the next report time, conditionally when asked', async () => {
    const account = accountRecord({ address: testAddress(8), nextReportAt: T0 });
    await repo().create(account);
    expect(await schedule().setNextReportAt(account.address, T0 + 24 * HOUR, T0)).toEqual({ kind: 'set' });
    expect(await schedule().setNextReportAt(account.address, T0 + 48 * HOUR, T0)).toEqual({ kind: 'lost' });
    expect(await schedule().setNextReportAt(account.address, T0 + 48 * HOUR)).toEqual({ kind: 'set' });
    expect((await repo().get(account.address))?.nextReportAt).toBe(T0 + 48 * HOUR);
  });
});

describe('AccountsRepository: due-time queries across shards', () => {
  const tables = testTables();
  const repo = () => new AccountsRepository(tables.client, tables.prefix);
  const schedule = () => new AccountScheduleRepository(tables.client, tables.prefix);
  const accounts = Array.from({ length: 40 }, (_, i) =>
    accountRecord({
      address: testAddress(i, 1),
      // Every third account is due (some long ago), the rest later.
      nextDueAt: i % 3 === 0 ? T0 - i * 60_000 : T0 + (i + 1) * 60_000,
      nextReportAt: i % 4 === 0 ? T0 - 1 : T0 + HOUR,
    }),
  );
  const due = accounts.filter((a) => a.nextDueAt !== null && a.nextDueAt <= T0);

  it('lists every account, by address', async () => {
    for (const account of accounts) await repo().create(account);
    const listed = await repo().list();
    expect(listed.map((a) => a.address)).toEqual(accounts.map((a) => a.address).sort());
    expect(listed.find((a) => a.address === accounts[0]?.address)).toEqual(accounts[0]);
  });

  it('finds exactly the due accounts, earliest first, from several shards', async () => {
    expect(new Set(due.map((a) => shardOf(a.address))).size).toBeGreaterThan(2);
    const found = await schedule().queryPending(T0, 100);
    expect(found.map((a) => a.address).sort()).toEqual(due.map((a) => a.address).sort());
    expect(found.map((a) => a.nextDueAt ?? 0)).toEqual([...found.map((a) => a.nextDueAt ?? 0)].sort((a, b) => a - b));
  });

  it('caps each shard at limitPerShard, taking the earliest of each', async () => {
    const found = await schedule().queryPending(T0, 1);
    const byShard = new Map<string, number[]>();
    for (const a of due) byShard.set(shardOf(a.address), [...(byShard.get(shardOf(a.address)) ?? []), a.nextDueAt ?? 0]);
    expect(found).toHaveLength(byShard.size);
    for (const account of found) {
      expect(account.nextDueAt).toBe(Math.min(...(byShard.get(shardOf(account.address)) ?? [])));
    }
  });

  it('finds the accounts whose report is due', async () => {
    const found = await schedule().queryReportsDue(T0);
    expect(found.map((a) => a.address).sort()).toEqual(
      accounts
        .filter((a) => a.nextReportAt <= T0)
        .map((a) => a.address)
        .sort(),
    );
    // Whole records, read from the table (the index holds keys only).
    for (const account of found) expect(account).toEqual(accounts.find((a) => a.address === account.address));
  });

  it('leaves out a due report another run has just claimed', async () => {
    const [first] = await schedule().queryReportsDue(T0);
    expect(first).toBeDefined();
    expect(await schedule().setNextReportAt(first!.address, T0 + 24 * HOUR, first!.nextReportAt)).toEqual({ kind: 'set' });
    expect((await schedule().queryReportsDue(T0)).map((a) => a.address)).not.toContain(first!.address);
  });
});

describe('AccountsRepository: import', () => {
  const tables = testTables();
  const repo = () => new AccountsRepository(tables.client, tables.prefix);

  it('imports 2,000 accounts, then updates settings of existing ones and keeps their state', async () => {
    const accounts = Array.from({ length: 2_000 }, (_, i) => accountRecord({ address: testAddress(i, 2), label: `acct ${i}` }));
    const first = await repo().importMany(accounts);
    expect(first.created).toHaveLength(2_000);
    expect(first.updated).toEqual([]);
    expect(first.consumedWriteUnits).toBeGreaterThanOrEqual(2_000);
    expect(await repo().list()).toHaveLength(2_000);
    expect(await repo().get(testAddress(1_234, 2))).toEqual(accounts[1_234]);

    const polled = testAddress(5, 2);
    const health = { status: 'failing' as const, statusReason: 'HTTP 500', consecutiveErrors: 4, consecutiveEmptyPolls: 2 };
    expect(await repo().recordHealth(polled, health)).toEqual({ kind: 'recorded' });
    const again = [
      accountRecord({ address: polled, label: 'renamed', interval: '4h' }),
      accountRecord({ address: testAddress(6, 2), label: 'first' }),
      accountRecord({ address: testAddress(6, 2), label: 'second' }),
      accountRecord({ address: testAddress(5_000, 2) }),
    ];
    const second = await repo().importMany(again);
    expect(second.created).toEqual([testAddress(5_000, 2)]);
    expect(second.updated).toEqual([polled, testAddress(6, 2)].sort());
    expect(await repo().get(polled)).toMatchObject({ label: 'renamed', interval: '4h', ...health });
    expect((await repo().get(testAddress(6, 2)))?.label).toBe('second');
  });

  it('rejects the whole import when one account is invalid, writing nothing', async () => {
    const accounts = [accountRecord({ address: testAddress(1, 3) }), accountRecord({ address: testAddress(2, 3), interval: '2h' as '1h' })];
    await expect(repo().importMany(accounts)).rejects.toThrow(/interval/);
    expect(await repo().get(testAddress(1, 3))).toBeNull();
  });
});

describe('AccountsRepository: import while another writer adds the same address', () => {
  const tables = testTables();
  const other = () => new AccountsRepository(tables.client, tables.prefix);
  /** An importer on its own client, on which `between` runs once, after its first `BatchGetItem` (its read) and before its writes. */
  const importer = (between: () => Promise<void>) => {
    const raw = createDynamoDbClient({ endpoint: inject('dynamoEndpoint') });
    let pending: (() => Promise<void>) | null = between;
    raw.middlewareStack.add(
      (next, context) => async (args) => {
        const out = await next(args);
        if (pending && String(context.commandName).includes('BatchGetItem')) {
          const run = pending;
          pending = null;
          await run();
        }
        return out;
      },
      { step: 'initialize', name: 'otherWriterBetweenReadAndWrite' },
    );
    return new AccountsRepository(createDocumentClient(raw), tables.prefix);
  };
  const theirs = (address: ReturnType<typeof testAddress>) =>
    accountRecord({ address, label: 'theirs', interval: '4h', drawdownThresholds: [7], reportAt: '06:15', timezone: 'Asia/Tokyo' });
  const health = { status: 'failing' as const, statusReason: 'HTTP 500', consecutiveErrors: 3, consecutiveEmptyPolls: 0 };

  it("leaves the other writer's account whole and says it existed (existing: 'leave'), writing the new ones", async () => {
    const [raced, fresh] = [testAddress(1, 7), testAddress(2, 7)];
    const repo = importer(async () => {
      expect(await other().create(theirs(raced))).toEqual({ kind: 'created' });
    });
    const outcome = await repo.importMany([accountRecord({ address: raced, label: 'mine' }), accountRecord({ address: fresh, label: 'new' })], {
      existing: 'leave',
    });
    expect(outcome).toMatchObject({ created: [fresh], updated: [], existed: [raced] });
    expect(await other().get(raced)).toEqual(theirs(raced));
    expect((await other().get(fresh))?.label).toBe('new');
  });

  it("updates only the settings of the other writer's account by default, keeping its health", async () => {
    const raced = testAddress(3, 7);
    const repo = importer(async () => {
      expect(await other().create(theirs(raced))).toEqual({ kind: 'created' });
      expect(await other().recordHealth(raced, health)).toEqual({ kind: 'recorded' });
    });
    const outcome = await repo.importMany([accountRecord({ address: raced, label: 'mine' })]);
    expect(outcome).toMatchObject({ created: [], updated: [raced], existed: [] });
    expect(await other().get(raced)).toMatchObject({ label: 'mine', ...health });
  });
});
