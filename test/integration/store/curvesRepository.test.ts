import { describe, expect, it } from 'vitest';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll } from '../../../functions/store/batchWrite';
import { BUCKET_SLOTS } from '../../../functions/store/curveBucket';
import { bucketSeriesKey, CurvesRepository, seriesKey, type StoredCurvePoint } from '../../../functions/store/curvesRepository';
import { StoreError } from '../../../functions/store/errors';
import { tableName } from '../../../functions/store/tableDefinitions';
import { testTables } from '../../support/testTables';
import { testAddress } from '../../support/store/accountFixture';

// Far in the future: DynamoDB Local really deletes expired items by the wall clock, and these
// tests must see what the repository's own TTL filter does with the injected clock.
const T0 = 3_000_000_000_000;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const FAR = T0 + 365 * DAY;
/** On the grid of every interval and at the start of a 1h bucket (12 h). */
const A0 = T0 - (T0 % DAY);
const SPAN_1H = BUCKET_SLOTS * HOUR;

/** `count` points an hour apart from `base + from` hours, both fields set. */
function points(count: number, from = 0, base = T0): StoredCurvePoint[] {
  return Array.from({ length: count }, (_, i) => ({ ts: base + (from + i) * HOUR, equity: `${1000 + from + i}.5`, pnl: `${from + i}` }));
}

/** The longest values a realistic chain sends: 18 decimals, up to a billion, signed. */
function longPoint(ts: number, i = 0): StoredCurvePoint {
  return { ts, equity: `${123_456_789 + i}.123456789012345678`, pnl: `-${12_345_678 + i}.123456789012345678` };
}

/** The real client, with `before` run on every command first (to throttle, or to shrink pages). */
function wrappedClient(real: DynamoDBDocumentClient, before: (command: unknown) => void): DynamoDBDocumentClient {
  const send = async (command: unknown) => {
    before(command);
    return real.send(command as never);
  };
  return new Proxy(real, { get: (target, property) => (property === 'send' ? send : Reflect.get(target, property)) });
}

function throttled(): Error {
  return Object.assign(new Error('slow down'), { name: 'ProvisionedThroughputExceededException' });
}

describe('CurvesRepository', () => {
  const tables = testTables();
  const repo = (now = T0) => new CurvesRepository(tables.client, tables.prefix, { now: () => now });
  const table = () => tableName(tables.prefix, 'curves');
  /** Items of the per-point layout, as releases before buckets wrote them. */
  const putLegacy = (address: string, items: readonly StoredCurvePoint[], expiresAtMs = FAR) =>
    batchWriteAll(
      tables.client,
      table(),
      items.map((p) => ({ PutRequest: { Item: { series: seriesKey(address, '1h'), ...p, expiresAt: Math.ceil(expiresAtMs / 1000) } } })),
      'test.putLegacy',
    );
  const bucketItems = async (address: string) =>
    (
      await tables.client.send(
        new QueryCommand({ TableName: table(), KeyConditionExpression: 'series = :s', ExpressionAttributeValues: { ':s': bucketSeriesKey(address, '1h') } }),
      )
    ).Items ?? [];

  it('writes points once: writing the same or overlapping points again adds no duplicates', async () => {
    const account = testAddress(1);
    const first = await repo().putPoints(account, '1h', points(60, 0, A0), FAR);
    expect(first).toEqual({ items: 60, buckets: 5, consumedWriteUnits: 5 });
    expect(await repo().countAndNewest(account, '1h')).toEqual({ count: 60, newestTs: A0 + 59 * HOUR });

    await repo().putPoints(account, '1h', points(60, 0, A0), FAR);
    expect(await repo().countAndNewest(account, '1h')).toEqual({ count: 60, newestTs: A0 + 59 * HOUR });
    expect(await repo().queryRange(account, '1h', 0, FAR)).toEqual(points(60, 0, A0));

    await repo().putPoints(account, '1h', points(40, 50, A0), FAR);
    expect(await repo().countAndNewest(account, '1h')).toEqual({ count: 90, newestTs: A0 + 89 * HOUR });
    expect(await bucketItems(account)).toHaveLength(Math.ceil(90 / BUCKET_SLOTS));
    // Other intervals of the same account are separate series.
    expect(await repo().countAndNewest(account, '1d')).toEqual({ count: 0, newestTs: null });
  });

  it('merges points of one timestamp within a call; a later call replaces a point whole', async () => {
    const account = testAddress(2);
    const result = await repo().putPoints(
      account,
      '1h',
      [
        { ts: A0, equity: '10' },
        { ts: A0, pnl: '-2.5' },
        { ts: A0 + HOUR, equity: '11' },
      ],
      FAR,
    );
    expect(result.items).toBe(2);
    expect(await repo().queryRange(account, '1h', 0, FAR)).toEqual([
      { ts: A0, equity: '10', pnl: '-2.5' },
      { ts: A0 + HOUR, equity: '11' },
    ]);

    await repo().putPoints(
      account,
      '1h',
      [
        { ts: A0, pnl: '-3' },
        { ts: A0 + 2 * HOUR, pnl: '4' },
      ],
      FAR,
    );
    expect(await repo().queryRange(account, '1h', 0, FAR)).toEqual([
      { ts: A0, pnl: '-3' },
      { ts: A0 + HOUR, equity: '11' },
      { ts: A0 + 2 * HOUR, pnl: '4' },
    ]);
  });

  it('reads a range oldest first, bounds included', async () => {
    const account = testAddress(3);
    await repo().putPoints(account, '1h', points(24).reverse(), FAR);
    const range = await repo().queryRange(account, '1h', T0 + 5 * HOUR, T0 + 10 * HOUR);
    expect(range).toEqual(points(6, 5));
    expect(await repo().latest(account, '1h')).toEqual(points(1, 23)[0]);
    expect(await repo().latest(testAddress(333), '1h')).toBeNull();
    expect(await repo().queryRange(account, '1h', T0 + 10 * HOUR, T0 + 5 * HOUR)).toEqual([]);
  });

  it('keeps every point across bucket boundaries, and ranges that cut buckets return exactly their points', async () => {
    const account = testAddress(10);
    // Three and a half days from the middle of a bucket, written in two calls out of order.
    const all = points(84, 7, A0);
    await repo().putPoints(account, '1h', all.slice(40), FAR);
    await repo().putPoints(account, '1h', all.slice(0, 40), FAR);
    expect(await repo().queryRange(account, '1h', 0, FAR)).toEqual(all);
    const cuts: [number, number][] = [
      [A0, A0 + SPAN_1H - 1], // one whole bucket (its first points were never written)
      [A0 + SPAN_1H, A0 + 2 * SPAN_1H], // a bucket and the first slot of the next
      [A0 + SPAN_1H - HOUR, A0 + SPAN_1H], // the last slot of one and the first of the next
      [A0 + 13 * HOUR + 1, A0 + 50 * HOUR - 1], // off-grid bounds inside buckets
      [A0 + 30 * HOUR, A0 + 30 * HOUR], // one point
      [A0 + 30 * HOUR + 1, A0 + 31 * HOUR - 1], // between two points
      [A0 - DAY, A0 + 8 * HOUR], // before the first point into its bucket
      [A0 + 80 * HOUR, FAR], // past the last point
    ];
    for (const [from, to] of cuts) {
      expect(await repo().queryRange(account, '1h', from, to), `${from - A0}..${to - A0}`).toEqual(all.filter((p) => p.ts >= from && p.ts <= to));
    }
  });

  it('round-trips points at every interval, on and off the interval grid', async () => {
    const account = testAddress(11);
    const onGrid = Array.from({ length: 30 }, (_, i) => ({ ts: A0 + i * 15 * MINUTE, equity: `${i}` }));
    await repo().putPoints(account, '15m', onGrid, FAR);
    expect(await repo().queryRange(account, '15m', 0, FAR)).toEqual(onGrid);
    // Off the grid (and several within one interval): each keeps its exact timestamp.
    const offGrid = Array.from({ length: 23 }, (_, i) => ({ ts: T0 + 7 + i * 997, pnl: `-${i}.25` }));
    await repo().putPoints(account, '1m', [...offGrid, { ts: A0 + MINUTE, pnl: '1' }], FAR);
    expect(await repo().queryRange(account, '1m', 0, FAR)).toEqual([...offGrid, { ts: A0 + MINUTE, pnl: '1' }].sort((a, b) => a.ts - b.ts));
    expect(await repo().countAndNewest(account, '1m')).toEqual({ count: 24, newestTs: T0 + 7 + 22 * 997 });
    const daily = Array.from({ length: 40 }, (_, i) => ({ ts: A0 + i * DAY, equity: `${i}`, pnl: '0' }));
    await repo().putPoints(account, '1d', daily, FAR);
    expect(await repo().queryRange(account, '1d', A0 + 5 * DAY, A0 + 30 * DAY)).toEqual(daily.slice(5, 31));
    // More off-grid points in one bucket than one update expression may set.
    const crowded = Array.from({ length: 250 }, (_, i) => ({ ts: A0 + 1 + i * 1_000, equity: `${i}` }));
    expect(await repo().putPoints(account, '4h', crowded, FAR)).toMatchObject({ items: 250, buckets: 1 });
    expect(await repo().queryRange(account, '4h', 0, FAR)).toEqual(crowded);
  });

  it('keeps decimal strings exactly as written', async () => {
    const account = testAddress(12);
    const exact = [
      { ts: A0, equity: '-0.000000000000000001', pnl: '+12.50' },
      { ts: A0 + HOUR, equity: '123456789012345678901234567890.123456789', pnl: '1e-3' },
      { ts: A0 + 2 * HOUR, equity: '.5', pnl: '-0' },
      { ts: A0 + 3 * HOUR, equity: '1.', pnl: '2E+10' },
      longPoint(A0 + 4 * HOUR),
    ];
    await repo().putPoints(account, '1h', exact, FAR);
    expect(await repo().queryRange(account, '1h', 0, FAR)).toEqual(exact);
  });

  it('reads legacy per-point items and buckets as one series; a bucket point wins over a legacy one', async () => {
    const account = testAddress(13);
    // Legacy: hours 0-29 (29 expired); buckets: hours 20-39, hours 20-24 with other values.
    await putLegacy(account, points(29, 0, A0));
    await putLegacy(account, points(1, 29, A0), T0 - HOUR);
    const newer = points(20, 20, A0).map((p) => ({ ...p, equity: `${p.equity}9` }));
    await repo().putPoints(account, '1h', newer, FAR);
    const expected = [...points(20, 0, A0), ...newer];
    expect(await repo().queryRange(account, '1h', 0, FAR)).toEqual(expected);
    expect(await repo().queryRange(account, '1h', A0 + 15 * HOUR, A0 + 22 * HOUR)).toEqual(expected.slice(15, 23));
    expect(await repo().countAndNewest(account, '1h')).toEqual({ count: 40, newestTs: A0 + 39 * HOUR });
    expect(await repo().latest(account, '1h')).toEqual(newer[19]);

    // A legacy point newer than every bucket (an old writer still running) is the latest.
    await putLegacy(account, points(1, 45, A0));
    expect(await repo().latest(account, '1h')).toEqual(points(1, 45, A0)[0]);
    expect(await repo().countAndNewest(account, '1h')).toEqual({ count: 41, newestTs: A0 + 45 * HOUR });

    // Only legacy items: read as before.
    const old = testAddress(14);
    await putLegacy(old, points(5, 0, A0));
    expect(await repo().queryRange(old, '1h', 0, FAR)).toEqual(points(5, 0, A0));
    expect(await repo().latest(old, '1h')).toEqual(points(1, 4, A0)[0]);
    expect(await repo().countAndNewest(old, '1h')).toEqual({ count: 5, newestTs: A0 + 4 * HOUR });
  });

  it('expires a bucket by its latest write, hiding its points before DynamoDB deletes them', async () => {
    const account = testAddress(4);
    // Hours 0-11 are one bucket, 12-14 the next.
    await repo().putPoints(account, '1h', points(3, 0, A0), T0 + 10 * HOUR);
    await repo().putPoints(account, '1h', points(3, 12, A0), T0 + 10 * HOUR);
    await repo().putPoints(account, '1h', points(2, 3, A0), T0 + 30 * HOUR);
    expect(await repo(T0 + 5 * HOUR).queryRange(account, '1h', 0, FAR)).toHaveLength(8);
    const later = repo(T0 + 20 * HOUR);
    // The first bucket's last write moved its expiry: all five of its points are kept.
    expect(await later.queryRange(account, '1h', 0, FAR)).toEqual(points(5, 0, A0));
    expect(await later.latest(account, '1h')).toEqual(points(1, 4, A0)[0]);
    expect(await later.countAndNewest(account, '1h')).toEqual({ count: 5, newestTs: A0 + 4 * HOUR });
    const muchLater = repo(T0 + 40 * HOUR);
    expect(await muchLater.queryRange(account, '1h', 0, FAR)).toEqual([]);
    expect(await muchLater.latest(account, '1h')).toBeNull();
    expect(await muchLater.countAndNewest(account, '1h')).toEqual({ count: 0, newestTs: null });
  });

  it('follows every page of a query', async () => {
    const account = testAddress(15);
    const all = points(100, 0, A0);
    // The newest buckets expire first, so `latest` has to page past them.
    await repo().putPoints(account, '1h', all.slice(0, 48), FAR);
    await repo().putPoints(account, '1h', all.slice(48), T0 + HOUR);
    let queries = 0;
    const tiny = new CurvesRepository(
      wrappedClient(tables.client, (command) => {
        if (command instanceof QueryCommand) {
          queries++;
          command.input.Limit = 1;
        }
      }),
      tables.prefix,
      { now: () => T0 + 2 * HOUR },
    );
    expect(await tiny.queryRange(account, '1h', 0, FAR)).toEqual(all.slice(0, 48));
    expect(queries).toBeGreaterThan(Math.ceil(100 / BUCKET_SLOTS));
    expect(await tiny.latest(account, '1h')).toEqual(all[47]);
    expect(await tiny.countAndNewest(account, '1h')).toEqual({ count: 48, newestTs: A0 + 47 * HOUR });
  });

  it('appends a point for one write unit at 1h and 15m, realistic long decimals included', async () => {
    for (const [interval, step] of [
      ['1h', HOUR],
      ['15m', 15 * MINUTE],
    ] as const) {
      const account = testAddress(16);
      const append: number[] = [];
      for (let slot = 0; slot < BUCKET_SLOTS; slot++) {
        append.push((await repo().putPoints(account, interval, [longPoint(A0 + slot * step, slot)], FAR)).consumedWriteUnits);
      }
      // Rewriting a point of the full bucket (a redelivery) costs the same.
      append.push((await repo().putPoints(account, interval, [longPoint(A0 + 5 * step, 99)], FAR)).consumedWriteUnits);
      expect(append, interval).toEqual(append.map(() => 1));
      expect(await repo().countAndNewest(account, interval)).toEqual({ count: BUCKET_SLOTS, newestTs: A0 + (BUCKET_SLOTS - 1) * step });
    }
    // The measurement can fail: an item over 1 KB is billed 2 units.
    const big = await repo().putPoints(testAddress(17), '1h', [{ ts: A0, equity: '1'.repeat(1100) }], FAR);
    expect(big.consumedWriteUnits).toBe(2);
  });

  it('refuses a point that is not a decimal string, writing none of the call', async () => {
    const account = testAddress(7);
    await expect(repo().putPoints(account, '1h', [...points(2), { ts: T0 + 9 * HOUR, equity: 'NaN' }], FAR)).rejects.toThrow(/equity/);
    expect(await repo().countAndNewest(account, '1h')).toEqual({ count: 0, newestTs: null });
  });

  it('refuses a malformed bucket with an error naming the attribute, never reading it half', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['value', { p3: 'abc|1' }, /invalid p3: not "<equity>\|<pnl>" of decimal strings/],
      ['three parts', { p3: '1|2|3' }, /invalid p3: not "<equity>/],
      ['empty value', { p3: '|' }, /invalid p3: holds neither/],
      ['no separator', { p3: '12' }, /invalid p3/],
      ['number', { p3: 12 }, /invalid p3: not "<equity>/],
      ['slot past the bucket', { [`p${BUCKET_SLOTS}`]: '1|1' }, /invalid p12: not a slot/],
      ['unknown attribute', { equity: '1' }, /invalid equity: not a slot/],
      ['off-grid name for a grid time', { [`m${HOUR}`]: '1|1' }, /not a slot/],
    ];
    for (const [label, attributes, message] of cases) {
      const account = testAddress(18);
      await tables.client.send(
        new PutCommand({ TableName: table(), Item: { series: bucketSeriesKey(account, '1h'), ts: A0, expiresAt: FAR / 1000, p0: '1|2', ...attributes } }),
      );
      const error = await repo()
        .queryRange(account, '1h', 0, FAR)
        .catch((e: unknown) => e);
      expect(error, label).toBeInstanceOf(StoreError);
      expect((error as Error).message, label).toMatch(message);
      await expect(repo().countAndNewest(account, '1h'), label).rejects.toThrow(message);
    }
    const misaligned = testAddress(19);
    await tables.client.send(
      new PutCommand({ TableName: table(), Item: { series: bucketSeriesKey(misaligned, '1h'), ts: A0 + HOUR, expiresAt: FAR / 1000, p0: '1|2' } }),
    );
    await expect(repo().latest(misaligned, '1h')).rejects.toThrow(/invalid ts: not the start of a 1h bucket/);
  });

  it('retries throttled writes with backoff until every point is written', async () => {
    const account = testAddress(5);
    let updates = 0;
    const client = wrappedClient(tables.client, (command) => {
      if (command instanceof UpdateCommand && ++updates <= 3) throw throttled();
    });
    const waits: number[] = [];
    const repository = new CurvesRepository(client, tables.prefix, {
      now: () => T0,
      batch: { concurrency: 1, sleep: async (ms) => void waits.push(ms), random: () => 0.5 },
    });
    const result = await repository.putPoints(account, '1h', points(30, 0, A0), FAR);
    expect(result).toMatchObject({ items: 30, buckets: 3 });
    expect(waits).toHaveLength(3);
    expect(await repo().queryRange(account, '1h', 0, FAR)).toEqual(points(30, 0, A0));
  });

  it('gives up with a retryable StoreError after the bounded attempts', async () => {
    const client = wrappedClient(tables.client, (command) => {
      if (command instanceof UpdateCommand) throw throttled();
    });
    const waits: number[] = [];
    const repository = new CurvesRepository(client, tables.prefix, {
      batch: { maxAttempts: 4, concurrency: 1, sleep: async (ms) => void waits.push(ms), random: () => 1 },
    });
    const error = await repository.putPoints(testAddress(6), '1h', points(8, 0, A0), FAR).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ retryable: true, operation: 'curves.putPoints' });
    expect((error as Error).message).toMatch(/ProvisionedThroughputExceededException/);
    // Exponential: each wait's cap is twice the one before.
    expect(waits).toHaveLength(3);
    expect(waits[1]).toBe(2 * (waits[0] ?? 0));
    expect(waits[2]).toBe(2 * (waits[1] ?? 0));
  });
});
