import * as z from 'zod';
import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { decimalStringSchema } from '../domain/curvePoint';
import { type Interval } from '../domain/interval';
import { batchWriteAll } from './batchWrite';
import { parseItem } from './parseItem';
import { queryAll } from './queryAll';
import type { RepositoryOptions } from './repositoryOptions';
import { isLive, toTtlSeconds } from './ttl';
import { DynamoRepository } from './dynamoRepository';

/** One stored curve point: equity and/or PnL at `ts` (ms), as the chain wrote them. */
export interface StoredCurvePoint {
  readonly ts: number;
  readonly equity?: string;
  readonly pnl?: string;
}

export interface PutPointsResult {
  /** Items written (points after merging duplicates of one timestamp). */
  readonly items: number;
  readonly consumedWriteUnits: number;
}

const pointSchema = z.object({
  ts: z.number().int().min(0),
  equity: decimalStringSchema.optional(),
  pnl: decimalStringSchema.optional(),
});
const itemSchema = pointSchema.extend({ expiresAt: z.number().optional() });

/** Curve points (table `curves`, key `series` = `${address}#${interval}` + `ts`), expiring by TTL. */
export class CurvesRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'curves', options);
  }

  /**
   * Writes points with `BatchWriteItem` (chunks of 25, throttled items retried with backoff,
   * then `UnprocessedItemsError`). The key is the point's timestamp, so writing a point again
   * overwrites it: retries and redeliveries never duplicate. Points of one timestamp are merged.
   * `expiresAt` is epoch ms (stored as epoch seconds for TTL).
   */
  async putPoints(
    address: string,
    interval: Interval,
    points: readonly StoredCurvePoint[],
    expiresAt: number,
  ): Promise<PutPointsResult> {
    const series = seriesKey(address, interval);
    const merged = new Map<number, StoredCurvePoint>();
    for (const point of points) {
      const valid = toPoint(parseItem(pointSchema, point, 'curves.putPoints'));
      const previous = merged.get(valid.ts);
      merged.set(valid.ts, previous ? toPoint({ ...previous, ...valid }) : valid);
    }
    const expiresAtSeconds = toTtlSeconds(expiresAt);
    const requests = [...merged.values()].map((point) => ({
      PutRequest: { Item: { series, ...point, expiresAt: expiresAtSeconds } },
    }));
    const { items, consumedWriteUnits } = await batchWriteAll(this.client, this.table, requests, 'curves.putPoints', this.options.batch);
    return { items, consumedWriteUnits };
  }

  /** Live points with `fromMs <= ts <= toMs`, oldest first, across all pages. */
  async queryRange(address: string, interval: Interval, fromMs: number, toMs: number): Promise<StoredCurvePoint[]> {
    const points: StoredCurvePoint[] = [];
    const items = queryAll(
      this.client,
      {
        TableName: this.table,
        KeyConditionExpression: 'series = :series AND ts BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':series': seriesKey(address, interval), ':from': fromMs, ':to': toMs },
      },
      'curves.queryRange',
    );
    const now = this.now();
    for await (const item of items) {
      const point = parseItem(itemSchema, item, 'curves.queryRange');
      if (isLive(point.expiresAt, now)) points.push(toPoint(point));
    }
    return points;
  }

  /** The newest live point, or null. */
  async latest(address: string, interval: Interval): Promise<StoredCurvePoint | null> {
    const items = queryAll(
      this.client,
      {
        TableName: this.table,
        KeyConditionExpression: 'series = :series',
        ExpressionAttributeValues: { ':series': seriesKey(address, interval) },
        ScanIndexForward: false,
        Limit: 10,
      },
      'curves.latest',
    );
    const now = this.now();
    for await (const item of items) {
      const point = parseItem(itemSchema, item, 'curves.latest');
      if (isLive(point.expiresAt, now)) return toPoint(point);
    }
    return null;
  }

  /** How many live points are stored, and the timestamp of the newest (null when none). */
  async countAndNewest(address: string, interval: Interval): Promise<{ count: number; newestTs: number | null }> {
    let count = 0;
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.call('curves.countAndNewest', () =>
        this.client.send(
          new QueryCommand({
            TableName: this.table,
            KeyConditionExpression: 'series = :series',
            FilterExpression: 'attribute_not_exists(expiresAt) OR expiresAt > :nowSeconds',
            ExpressionAttributeValues: { ':series': seriesKey(address, interval), ':nowSeconds': this.now() / 1000 },
            Select: 'COUNT',
            ...(startKey ? { ExclusiveStartKey: startKey } : {}),
          }),
        ),
      );
      count += page.Count ?? 0;
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    const newest = count > 0 ? await this.latest(address, interval) : null;
    return { count, newestTs: newest?.ts ?? null };
  }
}

/** Partition key of one account's curve at one interval. */
export function seriesKey(address: string, interval: Interval): string {
  return `${address}#${interval}`;
}

function toPoint(item: { ts: number; equity?: string | undefined; pnl?: string | undefined }): StoredCurvePoint {
  return {
    ts: item.ts,
    ...(item.equity === undefined ? {} : { equity: item.equity }),
    ...(item.pnl === undefined ? {} : { pnl: item.pnl }),
  };
}
