import * as z from 'zod';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { decimalStringSchema } from '../domain/curvePoint';
import { type Interval } from '../domain/interval';
import { backoff, retryWithBackoff, type Backoff } from '../shared/backoff';
import { chunk, mapConcurrent } from '../shared/concurrency';
import { BUCKET_SUFFIX, bucketStartOf, curveBucketSchema, packPoint, slotAttribute, type CurveBucket } from './curveBucket';
import { parseItem } from './parseItem';
import { queryAll } from './queryAll';
import type { RepositoryOptions } from './repositoryOptions';
import { StoreError } from './errors';
import type { StoredCurvePoint } from './storedCurvePoint';
import { isLive, toTtlSeconds } from './ttl';
import { DynamoRepository } from './dynamoRepository';

export type { StoredCurvePoint } from './storedCurvePoint';

export interface PutPointsResult {
  /** Points written (after merging duplicates of one timestamp). */
  readonly items: number;
  /** Bucket items those points went to (one `UpdateItem` each). */
  readonly buckets: number;
  readonly consumedWriteUnits: number;
}

const pointSchema = z.object({
  ts: z.number().int().min(0),
  equity: decimalStringSchema.optional(),
  pnl: decimalStringSchema.optional(),
  step: z
    .object({
      r: z.number().finite(),
      placement: z.enum(['refined', 'conservative']),
      fromTs: z.number().int().min(0),
      favourable: z.number().finite().optional(),
    })
    .refine((s) => s.favourable === undefined || s.placement === 'conservative', {
      message: 'only a conservative step has a favourable return',
      path: ['favourable'],
    })
    .optional(),
});
/**
 * Most slots one `UpdateItem` sets: a bucket holds `BUCKET_SLOTS` points on the interval grid, but
 * off-grid points have no such bound, and an update expression is limited to 4 KB.
 */
const SLOTS_PER_UPDATE = 100;
/**
 * When the reader of the per-point layout goes. The bucket layout shipped on 2026-11-23; the last
 * per-point items were written no later than that deploy with a 400-day TTL (collect's
 * `retentionMs`), so they expire by 2027-12-28, and DynamoDB deletes expired items within days.
 * A test fails after this date, as a reminder to delete `legacyPoints` and `mergePoints`.
 */
export const LEGACY_CURVE_READER_REMOVE_AFTER = '2028-01-31';

/** An item of the per-point layout written before buckets (`series` = `<address>#<interval>`). */
const legacyItemSchema = pointSchema.omit({ step: true }).extend({ expiresAt: z.number().optional() });

/**
 * Curve points in table `curves`, `BUCKET_SLOTS` consecutive interval slots per item
 * (`series` = `<address>#<interval>#b`, `ts` = the bucket's start; see `curveBucket.ts`),
 * expiring by TTL. Reads also merge the per-point items (`series` = `<address>#<interval>`)
 * written before buckets, until their own TTL removes them; a bucket's point wins over a
 * per-point item of the same timestamp.
 */
export class CurvesRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'curves', options);
  }

  /**
   * Writes points with one `UpdateItem` per bucket (`SET p<slot> = ..., expiresAt = ...`, up to
   * `batch.concurrency` in flight, throttled calls retried with backoff). Writing a point again
   * overwrites its slot: retries and redeliveries never duplicate. Points of one timestamp are
   * merged; every point is validated before anything is written. `expiresAt` is epoch ms (stored
   * as epoch seconds for TTL) and applies to the whole bucket from this write on.
   */
  async putPoints(address: string, interval: Interval, points: readonly StoredCurvePoint[], expiresAt: number): Promise<PutPointsResult> {
    const merged = new Map<number, StoredCurvePoint>();
    for (const point of points) {
      const valid = toPoint(
        parseItem(
          pointSchema.refine((p) => !p.step || p.step.fromTs < p.ts, { message: 'step starts at or after its point', path: ['step', 'fromTs'] }),
          point,
          'curves.putPoints',
        ),
      );
      const previous = merged.get(valid.ts);
      merged.set(valid.ts, previous ? toPoint({ ...previous, ...valid }) : valid);
    }
    const buckets = new Map<number, StoredCurvePoint[]>();
    for (const point of merged.values()) {
      const start = bucketStartOf(point.ts, interval);
      buckets.set(start, [...(buckets.get(start) ?? []), point]);
    }
    const series = bucketSeriesKey(address, interval);
    const expiresAtSeconds = toTtlSeconds(expiresAt);
    const policy = backoff(this.options.batch);
    const writes = [...buckets].flatMap(([start, bucketPoints]) => chunk(bucketPoints, SLOTS_PER_UPDATE).map((part) => ({ start, part })));
    const units = await mapConcurrent(writes, this.options.batch?.concurrency ?? 4, ({ start, part }) =>
      this.writeBucket(policy, { series, start, interval, points: part, expiresAtSeconds }),
    );
    return { items: merged.size, buckets: buckets.size, consumedWriteUnits: units.reduce((a, b) => a + b, 0) };
  }

  /** Live points with `fromMs <= ts <= toMs`, oldest first, across all pages. */
  async queryRange(address: string, interval: Interval, fromMs: number, toMs: number): Promise<StoredCurvePoint[]> {
    if (fromMs > toMs) return [];
    const operation = 'curves.queryRange';
    const [legacy, buckets] = await Promise.all([
      this.collect(this.legacyPoints(address, interval, operation, { fromMs, toMs })),
      this.collectRuns(this.bucketRuns(address, interval, operation, { fromMs, toMs })),
    ]);
    return mergePoints(legacy, buckets);
  }

  /** The newest live point, or null. */
  async latest(address: string, interval: Interval): Promise<StoredCurvePoint | null> {
    const operation = 'curves.latest';
    const [legacy, bucket] = await Promise.all([
      first(this.legacyPoints(address, interval, operation, { newestFirst: true })),
      first(this.bucketPoints(address, interval, operation, { newestFirst: true })),
    ]);
    if (legacy === undefined) return bucket ?? null;
    if (bucket === undefined) return legacy;
    return legacy.ts > bucket.ts ? legacy : bucket;
  }

  /** How many live points are stored (a timestamp in both layouts once), and the timestamp of the newest (null when none). */
  async countAndNewest(address: string, interval: Interval): Promise<{ count: number; newestTs: number | null }> {
    const operation = 'curves.countAndNewest';
    const timestamps = new Set<number>();
    let newestTs: number | null = null;
    const add = async (points: AsyncGenerator<StoredCurvePoint>) => {
      for await (const point of points) {
        timestamps.add(point.ts);
        newestTs = Math.max(newestTs ?? point.ts, point.ts);
      }
    };
    await Promise.all([
      add(this.legacyPoints(address, interval, operation, { projection: 'ts, expiresAt' })),
      add(this.bucketPoints(address, interval, operation, {})),
    ]);
    return { count: timestamps.size, newestTs };
  }

  private async writeBucket(
    policy: Backoff,
    bucket: { series: string; start: number; interval: Interval; points: readonly StoredCurvePoint[]; expiresAtSeconds: number },
  ): Promise<number> {
    const names: Record<string, string> = { '#expiresAt': 'expiresAt' };
    const values: Record<string, unknown> = { ':expiresAt': bucket.expiresAtSeconds };
    const sets = ['#expiresAt = :expiresAt'];
    bucket.points.forEach((point, i) => {
      names[`#s${i}`] = slotAttribute(point.ts, bucket.interval);
      values[`:s${i}`] = packPoint(point);
      sets.push(`#s${i} = :s${i}`);
    });
    const command = new UpdateCommand({
      TableName: this.table,
      Key: { series: bucket.series, ts: bucket.start },
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnConsumedCapacity: 'TOTAL',
    });
    const out = await retryWithBackoff(
      policy,
      () => this.call('curves.putPoints', () => this.client.send(command)),
      (error) => error instanceof StoreError && error.retryable,
    );
    return out.ConsumedCapacity?.CapacityUnits ?? 0;
  }

  /** Live points of the per-point layout, oldest first unless `newestFirst`. */
  private async *legacyPoints(address: string, interval: Interval, operation: string, range: ReadRange): AsyncGenerator<StoredCurvePoint> {
    const bounded = range.fromMs !== undefined && range.toMs !== undefined;
    const items = queryAll(
      this.client,
      {
        TableName: this.table,
        KeyConditionExpression: bounded ? 'series = :series AND ts BETWEEN :from AND :to' : 'series = :series',
        ExpressionAttributeValues: { ':series': seriesKey(address, interval), ...(bounded ? { ':from': range.fromMs, ':to': range.toMs } : {}) },
        ...(range.newestFirst ? { ScanIndexForward: false, Limit: 10 } : {}),
        ...(range.projection ? { ProjectionExpression: range.projection } : {}),
      },
      operation,
    );
    const now = this.now();
    for await (const item of items) {
      const point = parseItem(legacyItemSchema, item, operation);
      if (isLive(point.expiresAt, now)) yield toPoint(point);
    }
  }

  /** Live points of the bucket layout within the range, oldest first unless `newestFirst`. */
  private async *bucketPoints(address: string, interval: Interval, operation: string, range: ReadRange): AsyncGenerator<StoredCurvePoint> {
    for await (const run of this.bucketRuns(address, interval, operation, range)) yield* run;
  }

  /** `bucketPoints` a bucket at a time (a long range's tens of thousands of points without a promise each). */
  private async *bucketRuns(address: string, interval: Interval, operation: string, range: ReadRange): AsyncGenerator<StoredCurvePoint[]> {
    const fromMs = range.fromMs ?? 0;
    const toMs = range.toMs ?? Number.MAX_SAFE_INTEGER;
    const items = queryAll(
      this.client,
      {
        TableName: this.table,
        KeyConditionExpression: 'series = :series AND ts BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':series': bucketSeriesKey(address, interval), ':from': bucketStartOf(fromMs, interval), ':to': toMs },
        ...(range.newestFirst ? { ScanIndexForward: false, Limit: 4 } : {}),
      },
      operation,
    );
    const schema = curveBucketSchema(interval);
    const now = this.now();
    for await (const item of items) {
      const bucket: CurveBucket = parseItem(schema, item, operation);
      if (!isLive(bucket.expiresAt, now)) continue;
      const whole = bucket.points.length > 0 && bucket.points[0]!.ts >= fromMs && bucket.points.at(-1)!.ts <= toMs;
      const inRange = whole ? bucket.points : bucket.points.filter((p) => p.ts >= fromMs && p.ts <= toMs);
      yield range.newestFirst ? inRange.reverse() : inRange;
    }
  }

  private async collect(points: AsyncGenerator<StoredCurvePoint>): Promise<StoredCurvePoint[]> {
    const all: StoredCurvePoint[] = [];
    for await (const point of points) all.push(point);
    return all;
  }

  private async collectRuns(runs: AsyncGenerator<StoredCurvePoint[]>): Promise<StoredCurvePoint[]> {
    const all: StoredCurvePoint[] = [];
    for await (const run of runs) for (const point of run) all.push(point);
    return all;
  }
}

interface ReadRange {
  readonly fromMs?: number;
  readonly toMs?: number;
  readonly newestFirst?: boolean;
  /** Attributes to read of the per-point items (all when absent). */
  readonly projection?: string;
}

/** Partition key of one account's curve at one interval (per-point items, written before buckets). */
export function seriesKey(address: string, interval: Interval): string {
  return `${address}#${interval}`;
}

/** Partition key of one account's curve buckets at one interval. */
export function bucketSeriesKey(address: string, interval: Interval): string {
  return `${seriesKey(address, interval)}${BUCKET_SUFFIX}`;
}

async function first<T>(values: AsyncGenerator<T>): Promise<T | undefined> {
  for await (const value of values) return value;
  return undefined;
}

/** Both layouts' points as one series, oldest first; a bucket's point replaces a per-point item of the same timestamp (`buckets` itself when there is no per-point item). */
function mergePoints(legacy: readonly StoredCurvePoint[], buckets: StoredCurvePoint[]): StoredCurvePoint[] {
  if (legacy.length === 0) return buckets;
  const byTs = new Map<number, StoredCurvePoint>();
  for (const point of legacy) byTs.set(point.ts, point);
  for (const point of buckets) byTs.set(point.ts, point);
  return [...byTs.values()].sort((a, b) => a.ts - b.ts);
}

type ParsedStep = { r: number; placement: 'refined' | 'conservative'; fromTs: number; favourable?: number | undefined };

function toPoint(item: { ts: number; equity?: string | undefined; pnl?: string | undefined; step?: ParsedStep | undefined }): StoredCurvePoint {
  const { step } = item;
  return {
    ts: item.ts,
    ...(item.equity === undefined ? {} : { equity: item.equity }),
    ...(item.pnl === undefined ? {} : { pnl: item.pnl }),
    ...(step === undefined
      ? {}
      : { step: { r: step.r, placement: step.placement, fromTs: step.fromTs, ...(step.favourable === undefined ? {} : { favourable: step.favourable }) } }),
  };
}
