import { describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ReportRecordsRepository, type ReportRecord } from '../../../functions/store/reportRecordsRepository';
import { tableName } from '../../../functions/store/tableDefinitions';
import { testTables } from '../../support/testTables';
import { testAddress } from '../../support/store/accountFixture';

// In the future, so DynamoDB Local's wall-clock TTL sweeper leaves the items alone.
const T0 = 3_000_000_000_000;

function record(address: string, timeZone: string, coveredDate: string, fromMs: number): ReportRecord {
  return { address, coveredDate, timeZone, savedAt: T0, windows: [{ key: 'day', fromMs, toMs: fromMs + 86_400_000, interval: '1h', summary: null }] };
}

describe('ReportRecordsRepository', () => {
  const tables = testTables();
  const repo = () => new ReportRecordsRepository(tables.client, tables.prefix, { now: () => T0 });

  it("keeps one record per zone: a recipient in another zone neither overwrites nor reads the account zone's windows", async () => {
    const address = testAddress(41);
    await repo().put(record(address, 'Europe/Berlin', '2026-11-20', 1));
    await repo().put(record(address, 'Asia/Tokyo', '2026-11-20', 2));
    expect((await repo().latestBefore(address, 'Europe/Berlin', '2026-11-21'))?.windows[0]?.fromMs).toBe(1);
    expect((await repo().latestBefore(address, 'Asia/Tokyo', '2026-11-21'))?.windows[0]?.fromMs).toBe(2);
    expect(await repo().latestBefore(address, 'America/New_York', '2026-11-21')).toBeNull();
  });

  it("still reads a record written before zones were in the key, and prefers the zone's own on the same day", async () => {
    const address = testAddress(42);
    const legacy = {
      eventId: `report-windows:${address}:2026-11-19`,
      kind: 'report-windows',
      address,
      coveredDate: '2026-11-19',
      savedAt: T0,
      windows: [],
      expiresAt: T0 / 1000 + 86_400,
    };
    await tables.client.send(new PutCommand({ TableName: tableName(tables.prefix, 'deliveries'), Item: legacy }));
    expect((await repo().latestBefore(address, 'UTC', '2026-11-21'))?.coveredDate).toBe('2026-11-19');
    await repo().put(record(address, 'UTC', '2026-11-19', 7));
    expect((await repo().latestBefore(address, 'UTC', '2026-11-21'))?.windows[0]?.fromMs).toBe(7);
  });
});
