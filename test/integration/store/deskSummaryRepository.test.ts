import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { mapConcurrent } from '../../../functions/shared/concurrency';
import { AlertStateRepository } from '../../../functions/store/alertStateRepository';
import { DeskSummaryRepository, type DeskSummary } from '../../../functions/store/deskSummaryRepository';
import { StoreError } from '../../../functions/store/errors';
import { tableName } from '../../../functions/store/tableDefinitions';
import { testAddress } from '../../support/store/accountFixture';
import { testTables } from '../../support/testTables';

const summaryOf = (address: string, n: number): DeskSummary => ({
  v: 1,
  address,
  interval: '1h',
  timezone: 'Asia/Kathmandu',
  computedAt: 1_900_000_000_000 + n,
  polledAt: 1_900_000_000_000,
  lastPollAt: 1_900_000_001_234,
  asOf: 1_899_999_996_400,
  equity: 50_123.456789 + n,
  today: {
    localDate: '2030-03-17',
    figures: {
      startAt: 1_899_990_000_000,
      endAt: 1_899_999_996_400,
      equityStart: 50_000,
      equityEnd: 50_123.456789,
      pnl: -12.345678901234,
      returnPct: -0.0246913578,
      netFlows: 0,
      deposits: 0,
      withdrawals: 0,
    },
  },
  drawdownPct: 3.14159265358979,
  breachedLevels: [1, 2],
  killSwitch: { status: 'pending', since: 1_899_999_000_000 },
  soonestExpiry: { address: testAddress(900), name: null, expiryMs: 1_900_100_000_000 },
  delegates: 2,
  spark: [0, -0.001, 0.0025, -1e-9],
});

describe('DeskSummaryRepository', () => {
  const tables = testTables();
  const repo = () => new DeskSummaryRepository(tables.client, tables.prefix);

  it('reads back every summary it wrote, exactly, across several BatchGetItem calls, leaving out accounts without one', async () => {
    const addresses = Array.from({ length: 230 }, (_, i) => testAddress(1_000 + i));
    const written = addresses.filter((_, i) => i % 7 !== 3);
    await mapConcurrent(written, 16, (address) => repo().put(summaryOf(address, written.indexOf(address))));
    const found = await repo().getMany(addresses);
    expect(found.size).toBe(written.length);
    written.forEach((address, n) => expect(found.get(address), address).toEqual(summaryOf(address, n)));
    expect(await repo().getMany([])).toEqual(new Map());
  });

  it('keeps summaries apart from the alert states of the same account', async () => {
    const address = testAddress(2_000);
    await repo().put(summaryOf(address, 0));
    expect(await new AlertStateRepository(tables.client, tables.prefix).listWithControls(address)).toEqual([]);
  });

  it('refuses a summary with a figure DynamoDB cannot store, naming the field, and leaves the stored one as it was', async () => {
    const address = testAddress(3_000);
    await repo().put(summaryOf(address, 0));
    const bad = { ...summaryOf(address, 1), drawdownPct: Number.NaN };
    const error = await repo()
      .put(bad)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(String((error as Error).message)).toContain('drawdownPct');
    expect((await repo().getMany([address])).get(address)).toEqual(summaryOf(address, 0));
  });

  it('leaves out an item that does not validate, so its account is measured from the store instead', async () => {
    const address = testAddress(4_000);
    const { drawdownPct: _dropped, ...half } = summaryOf(address, 0);
    await tables.client.send(
      new PutCommand({ TableName: tableName(tables.prefix, 'alerts'), Item: { ...half, address: `desk-summary#${address}`, rule: 'desk-summary' } }),
    );
    expect(await repo().getMany([address])).toEqual(new Map());
  });
});
