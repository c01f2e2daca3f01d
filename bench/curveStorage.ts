/**
 * Curve storage benchmark (`npx tsx bench/curveStorage.ts`).
 *
 * Starts DynamoDB Local (in memory), then for each interval and two value shapes writes a sample
 * of one account's curve twice: as one item per point (the layout before buckets, `PutItem` per
 * point under `<address>#<interval>`) and through `CurvesRepository.putPoints` one point per call
 * (buckets of `BUCKET_SLOTS` slots, what a steady-state poll does). It prints:
 * - stored bytes per account at steady state (400 days of points): DynamoDB's item size of the
 *   stored items plus 100 bytes of per-item overhead, from full sample buckets scaled to 400 days;
 * - write units per appended point (`ReturnConsumedCapacity`), mean and worst;
 * - read units of reading 90 days at 1h (`ReturnConsumedCapacity` on every Query page).
 * DynamoDB Local sizes items and bills capacity as DynamoDB does; its latency is not measured.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetItemCommand, QueryCommand as RawQueryCommand } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { INTERVAL_MS, type Interval } from '../functions/domain/interval';
import { BUCKET_SLOTS, bucketStartOf } from '../functions/store/curveBucket';
import { bucketSeriesKey, CurvesRepository, seriesKey, type StoredCurvePoint } from '../functions/store/curvesRepository';
import { createTables } from '../functions/store/createTables';
import { createDocumentClient, createDynamoDbClient } from '../functions/store/documentClient';
import { tableName } from '../functions/store/tableDefinitions';
import { startDynamoDbLocal } from '../local/dynamodb';
import { PRICES_US_EAST_1 } from './prices-us-east-1';

const DAY = 86_400_000;
const RETENTION_DAYS = 400;
const ITEM_OVERHEAD_BYTES = 100;
/** Far in the future: DynamoDB Local deletes items whose TTL passed by the wall clock. */
const START = Date.UTC(2040, 0, 1);
const EXPIRES_AT = START + 4_000 * DAY;
const ACCOUNTS = 1_000;

/** Two shapes of values: the simulator's cents, and 18-decimal values up to a billion. */
const VALUES = {
  cents: (i: number) => ({ equity: `${(52_000 + i * 1.37).toFixed(2)}`, pnl: `${(-1_234 + i * 0.91).toFixed(2)}` }),
  long: (i: number) => ({ equity: `${123_456_789 + i}.123456789012345678`, pnl: `-${12_345_678 + i}.123456789012345678` }),
} as const;
type Shape = keyof typeof VALUES;

const dynamo = await startDynamoDbLocal({ inMemory: true });
try {
  const raw = createDynamoDbClient({ endpoint: dynamo.endpoint });
  const client = createDocumentClient(raw);
  const prefix = `benchcurves${Date.now().toString(36)}-`;
  await createTables(raw, prefix);
  const table = tableName(prefix, 'curves');
  const repo = new CurvesRepository(client, prefix, { now: () => START });
  let account = 0;
  const nextAddress = () => `0x${(++account).toString(16).padStart(40, '0')}`;
  const pointsFrom = (start: number, interval: Interval, count: number, shape: Shape): StoredCurvePoint[] =>
    Array.from({ length: count }, (_, i) => ({ ts: start + i * INTERVAL_MS[interval], ...VALUES[shape](i) }));

  /** One item per point, as releases before buckets wrote them; the write units of each `PutItem`. */
  const putLegacy = async (address: string, interval: Interval, points: readonly StoredCurvePoint[]): Promise<number[]> => {
    const units: number[] = [];
    for (const point of points) {
      const out = await client.send(
        new PutCommand({
          TableName: table,
          Item: { series: seriesKey(address, interval), ...point, expiresAt: Math.ceil(EXPIRES_AT / 1000) },
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      units.push(out.ConsumedCapacity?.CapacityUnits ?? 0);
    }
    return units;
  };
  const storedBytes = async (series: string, ts: number): Promise<number> => {
    const out = await raw.send(new GetItemCommand({ TableName: table, Key: { series: { S: series }, ts: { N: String(ts) } } }));
    if (!out.Item) throw new Error(`no item ${series} ${ts}`);
    return itemBytes(out.Item) + ITEM_OVERHEAD_BYTES;
  };

  const storageRows: string[][] = [];
  const dollars: Record<string, number> = {};
  for (const interval of ['1m', '15m', '1h', '1d'] as const) {
    for (const shape of ['cents', 'long'] as const) {
      const pointsPerAccount = (RETENTION_DAYS * DAY) / INTERVAL_MS[interval];
      // Before: a sample of per-point items.
      const before = nextAddress();
      const sample = pointsFrom(START, interval, 24, shape);
      const legacyUnits = await putLegacy(before, interval, sample);
      let legacyBytes = 0;
      for (const point of sample) legacyBytes += await storedBytes(seriesKey(before, interval), point.ts);
      const bytesBefore = (legacyBytes / sample.length) * pointsPerAccount;
      // After: three full buckets, appended one point per call.
      const after = nextAddress();
      const appended = pointsFrom(START, interval, 3 * BUCKET_SLOTS, shape);
      const bucketUnits: number[] = [];
      for (const point of appended) bucketUnits.push((await repo.putPoints(after, interval, [point], EXPIRES_AT)).consumedWriteUnits);
      let bucketBytes = 0;
      for (let b = 0; b < 3; b++)
        bucketBytes += await storedBytes(bucketSeriesKey(after, interval), bucketStartOf(START, interval) + b * BUCKET_SLOTS * INTERVAL_MS[interval]);
      const bytesAfter = (bucketBytes / 3) * (pointsPerAccount / BUCKET_SLOTS);
      const perMonth = (bytes: number) => ((bytes * ACCOUNTS) / 1e9) * (PRICES_US_EAST_1.dynamodb.perGbMonth + PRICES_US_EAST_1.dynamodb.pitrPerGbMonth);
      const appendsPerMonth = (30 * DAY) / INTERVAL_MS[interval];
      const writesPerMonth = (units: number[]) => mean(units) * appendsPerMonth * ACCOUNTS * PRICES_US_EAST_1.dynamodb.perWriteRequestUnit;
      if (interval === '1h') {
        dollars[`${shape} storage before`] = perMonth(bytesBefore);
        dollars[`${shape} storage after`] = perMonth(bytesAfter);
        dollars[`${shape} writes before`] = writesPerMonth(legacyUnits);
        dollars[`${shape} writes after`] = writesPerMonth(bucketUnits);
      }
      storageRows.push([
        interval,
        shape,
        fmtInt(pointsPerAccount),
        `${kb(bytesBefore)} (${fmtInt(pointsPerAccount)} items)`,
        `${kb(bytesAfter)} (${fmtInt(pointsPerAccount / BUCKET_SLOTS)} items)`,
        `${(bytesBefore / bytesAfter).toFixed(1)}x`,
        `${mean(legacyUnits).toFixed(2)} / ${Math.max(...legacyUnits)}`,
        `${mean(bucketUnits).toFixed(2)} / ${Math.max(...bucketUnits)}`,
        `${(bucketBytes / 3 - ITEM_OVERHEAD_BYTES).toFixed(0)} B`,
      ]);
    }
  }

  // Reading 90 days at 1h: before (one Query over the per-point items, as `queryRange` did), after
  // (`queryRange`: the bucket Query plus the per-point Query that finds nothing once they expired).
  const readRows: string[][] = [];
  for (const shape of ['cents', 'long'] as const) {
    const days = 90;
    const now = START + days * DAY;
    const points = pointsFrom(START, '1h', days * 24, shape);
    const before = nextAddress();
    await putLegacy(before, '1h', points);
    let rruBefore = 0;
    let pagesBefore = 0;
    let startKey: Record<string, AttributeValue> | undefined;
    do {
      const out = await raw.send(
        new RawQueryCommand({
          TableName: table,
          KeyConditionExpression: 'series = :s AND ts BETWEEN :f AND :t',
          ExpressionAttributeValues: { ':s': { S: seriesKey(before, '1h') }, ':f': { N: String(now - days * DAY) }, ':t': { N: String(now) } },
          ReturnConsumedCapacity: 'TOTAL',
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      rruBefore += out.ConsumedCapacity?.CapacityUnits ?? 0;
      pagesBefore++;
      startKey = out.LastEvaluatedKey;
    } while (startKey);
    const after = nextAddress();
    await repo.putPoints(after, '1h', points, EXPIRES_AT);
    const metered = meteredRepo(prefix, dynamo.endpoint, now);
    const read = await metered.repo.queryRange(after, '1h', now - days * DAY, now);
    if (read.length !== points.length) throw new Error(`read ${read.length} of ${points.length} points`);
    readRows.push([shape, `${rruBefore.toFixed(1)} (${pagesBefore} page(s))`, `${metered.units().toFixed(1)} (${metered.queries()} queries)`]);
  }

  print(
    `Curve storage per account at steady state (${RETENTION_DAYS} days), ${BUCKET_SLOTS} slots per bucket`,
    [
      'interval',
      'values',
      'points',
      'bytes before',
      'bytes after',
      'smaller',
      'WRU/append before (mean / max)',
      'WRU/append after (mean / max)',
      'full bucket item',
    ],
    storageRows,
  );
  print('Reading 90 days at 1h (RRU, eventually consistent)', ['values', 'before', 'after'], readRows);
  print(
    `At 1h, $ per ${fmtInt(ACCOUNTS)} accounts-month (storage + PITR; one append per hour)`,
    ['values', 'storage before', 'storage after', 'writes before', 'writes after'],
    (['cents', 'long'] as const).map((shape) => [
      shape,
      money(dollars[`${shape} storage before`]),
      money(dollars[`${shape} storage after`]),
      money(dollars[`${shape} writes before`]),
      money(dollars[`${shape} writes after`]),
    ]),
  );
} finally {
  await dynamo.stop();
}

/** A repository on its own client whose Query pages are metered (`ReturnConsumedCapacity: TOTAL`). */
function meteredRepo(prefix: string, endpoint: string, now: number) {
  const raw = createDynamoDbClient({ endpoint });
  let units = 0;
  let queries = 0;
  raw.middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as { ReturnConsumedCapacity?: string };
      input.ReturnConsumedCapacity = 'TOTAL';
      const out = await next(args);
      const consumed = (out.output as { ConsumedCapacity?: { CapacityUnits?: number } }).ConsumedCapacity;
      units += consumed?.CapacityUnits ?? 0;
      queries++;
      return out;
    },
    { step: 'initialize', name: 'meterCurveReads' },
  );
  return { repo: new CurvesRepository(createDocumentClient(raw), prefix, { now: () => now }), units: () => units, queries: () => queries };
}

/** DynamoDB's size of an item of strings and numbers (attribute names included), in bytes. */
function itemBytes(item: Record<string, AttributeValue>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) {
    bytes += Buffer.byteLength(name);
    if (value.S !== undefined) bytes += Buffer.byteLength(value.S);
    else if (value.N !== undefined) bytes += Math.ceil(value.N.replace(/^-|\./g, '').length / 2) + 1;
    else throw new Error(`unexpected attribute type in ${name}`);
  }
  return bytes;
}

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

function kb(bytes: number): string {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(2)} MB` : `${(bytes / 1e3).toFixed(0)} KB`;
}

function fmtInt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function money(n: number | undefined): string {
  return `$${(n ?? 0).toFixed(3)}`;
}

function print(title: string, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  console.log(`\n${title}\n`);
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(row));
}
