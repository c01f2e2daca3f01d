import { describe, expect, it } from 'vitest';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { CurvesRepository, type StoredCurvePoint } from '../../functions/store/curvesRepository';
import { UnprocessedItemsError } from '../../functions/store/storeError';
import { testTables } from '../support/testTables';
import { testAddress } from './accountFixture';

// Far in the future: DynamoDB Local really deletes expired items by the wall clock, and these
// tests must see what the repository's own TTL filter does with the injected clock.
const T0 = 3_000_000_000_000;
const HOUR = 3_600_000;
const FAR = T0 + 365 * 24 * HOUR;

function points(count: number, from = 0): StoredCurvePoint[] {
  return Array.from({ length: count }, (_, i) => ({ ts: T0 + (from + i) * HOUR, equity: `${1000 + from + i}.5`, pnl: `${from + i}` }));
}

/**
 * A client whose first `BatchWriteItem` calls write only part of their items and hand the
 * rest back as `UnprocessedItems`, as DynamoDB does when throttled.
 */
function throttlingClient(real: DynamoDBDocumentClient, throttledCalls: number): DynamoDBDocumentClient & { batchCalls: number } {
  let batchCalls = 0;
  const send = async (command: unknown) => {
    if (!(command instanceof BatchWriteCommand)) return real.send(command as never);
    batchCalls++;
    if (batchCalls > throttledCalls) return real.send(command);
    const [table, requests] = Object.entries(command.input.RequestItems ?? {})[0] ?? ['', []];
    const keep = requests.slice(0, Math.floor(requests.length / 2));
    if (keep.length > 0) await real.send(new BatchWriteCommand({ RequestItems: { [table]: keep } }));
    return { UnprocessedItems: { [table]: requests.slice(keep.length) }, ConsumedCapacity: [{ TableName: table, CapacityUnits: keep.length }] };
  };
  return new Proxy(real, {
    get: (target, property) => (property === 'send' ? send : property === 'batchCalls' ? batchCalls : Reflect.get(target, property)),
  }) as DynamoDBDocumentClient & { batchCalls: number };
}

describe('CurvesRepository', () => {
  const tables = testTables();
  const repo = (now = T0) => new CurvesRepository(tables.client, tables.prefix, { now: () => now });

  it('writes points once: writing the same or overlapping points again adds no duplicates', async () => {
    const account = testAddress(1);
    const first = await repo().putPoints(account, '1h', points(60), FAR);
    expect(first.items).toBe(60);
    expect(first.consumedWriteUnits).toBeGreaterThanOrEqual(60);
    expect(await repo().countAndNewest(account, '1h')).toEqual({ count: 60, newestTs: T0 + 59 * HOUR });

    await repo().putPoints(account, '1h', points(60), FAR);
    expect(await repo().countAndNewest(account, '1h')).toEqual({ count: 60, newestTs: T0 + 59 * HOUR });

    await repo().putPoints(account, '1h', points(40, 50), FAR);
    expect(await repo().countAndNewest(account, '1h')).toEqual({ count: 90, newestTs: T0 + 89 * HOUR });
    // Other intervals of the same account are separate series.
    expect(await repo().countAndNewest(account, '1d')).toEqual({ count: 0, newestTs: null });
  });

  it('merges points of one timestamp within a call', async () => {
    const account = testAddress(2);
    const result = await repo().putPoints(account, '1h', [{ ts: T0, equity: '10' }, { ts: T0, pnl: '-2.5' }, { ts: T0 + HOUR, equity: '11' }], FAR);
    expect(result.items).toBe(2);
    expect(await repo().queryRange(account, '1h', 0, FAR)).toEqual([{ ts: T0, equity: '10', pnl: '-2.5' }, { ts: T0 + HOUR, equity: '11' }]);
  });

  it('reads a range oldest first, bounds included', async () => {
    const account = testAddress(3);
    await repo().putPoints(account, '1h', points(24).reverse(), FAR);
    const range = await repo().queryRange(account, '1h', T0 + 5 * HOUR, T0 + 10 * HOUR);
    expect(range).toEqual(points(6, 5));
    expect(await repo().latest(account, '1h')).toEqual(points(1, 23)[0]);
    expect(await repo().latest(testAddress(333), '1h')).toBeNull();
  });

  it('hides points whose TTL has passed, before DynamoDB deletes them', async () => {
    const account = testAddress(4);
    await repo().putPoints(account, '1h', points(3), T0 + 10 * HOUR);
    await repo().putPoints(account, '1h', points(2, 3), T0 + 30 * HOUR);
    expect((await repo(T0 + 5 * HOUR).queryRange(account, '1h', 0, FAR)).length).toBe(5);
    const later = repo(T0 + 20 * HOUR);
    expect(await later.queryRange(account, '1h', 0, FAR)).toEqual(points(2, 3));
    expect(await later.countAndNewest(account, '1h')).toEqual({ count: 2, newestTs: T0 + 4 * HOUR });
    const muchLater = repo(T0 + 40 * HOUR);
    expect(await muchLater.latest(account, '1h')).toBeNull();
    expect(await muchLater.countAndNewest(account, '1h')).toEqual({ count: 0, newestTs: null });
  });

  it('retries UnprocessedItems with backoff until every point is written', async () => {
    const account = testAddress(5);
    const client = throttlingClient(tables.client, 3);
    const waits: number[] = [];
    const throttled = new CurvesRepository(client, tables.prefix, {
      now: () => T0,
      batch: { concurrency: 1, sleep: async (ms) => void waits.push(ms), random: () => 0.5 },
    });
    const result = await throttled.putPoints(account, '1h', points(30), FAR);
    expect(result.items).toBe(30);
    expect(waits.length).toBeGreaterThanOrEqual(3);
    expect(await repo().countAndNewest(account, '1h')).toEqual({ count: 30, newestTs: T0 + 29 * HOUR });
  });

  it('gives up with UnprocessedItemsError after the bounded attempts', async () => {
    const client = throttlingClient(tables.client, Number.POSITIVE_INFINITY);
    const waits: number[] = [];
    const throttled = new CurvesRepository(client, tables.prefix, {
      batch: { maxAttempts: 4, concurrency: 1, sleep: async (ms) => void waits.push(ms), random: () => 1 },
    });
    const error = await throttled.putPoints(testAddress(6), '1h', points(8), FAR).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessedItemsError);
    expect(error).toMatchObject({ attempts: 4, unprocessed: 1 });
    // Exponential: each wait's cap is twice the one before.
    expect(waits).toHaveLength(3);
    expect(waits[1]).toBe(2 * (waits[0] ?? 0));
    expect(waits[2]).toBe(2 * (waits[1] ?? 0));
  });

  it('refuses a point that is not a decimal string, writing none of the call', async () => {
    const account = testAddress(7);
    await expect(repo().putPoints(account, '1h', [...points(2), { ts: T0 + 9 * HOUR, equity: 'NaN' }], FAR)).rejects.toThrow(/equity/);
    expect(await repo().countAndNewest(account, '1h')).toEqual({ count: 0, newestTs: null });
  });
});
