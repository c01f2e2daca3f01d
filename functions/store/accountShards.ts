import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { slotCadence, slotMinute } from '../domain/schedule';
import type { Interval } from '../domain/interval';
import { parseItem } from './parseItem';
import { queryAll } from './queryAll';
import { SHARDS } from './shard';

/** What the keys-only `byNextReport` index holds of an account. */
export const reportKeySchema = z.object({ address: z.string().min(1) });

/**
 * Queries every shard of one of the accounts table's sharded indexes (`byNextDue`, `byNextReport`),
 * up to `upTo` on its sort key when given, at most `limitPerShard` items from each shard.
 */
export async function queryAccountShards<T>(
  client: DynamoDBDocumentClient,
  table: string,
  operation: string,
  indexName: 'byNextDue' | 'byNextReport',
  upTo: number | undefined,
  limitPerShard: number,
  schema: z.ZodType<T>,
): Promise<T[]> {
  const sortKey = indexName === 'byNextDue' ? 'nextDueAt' : 'nextReportAt';
  const perShard = await Promise.all(
    SHARDS.map(async (shard) => {
      const found: T[] = [];
      const pageSize = Number.isFinite(limitPerShard) ? Math.max(1, Math.min(limitPerShard, 1_000)) : undefined;
      const items = queryAll(
        client,
        {
          TableName: table,
          IndexName: indexName,
          KeyConditionExpression: upTo === undefined ? '#shard = :shard' : `#shard = :shard AND #sortKey <= :upTo`,
          ExpressionAttributeNames: upTo === undefined ? { '#shard': 'shard' } : { '#shard': 'shard', '#sortKey': sortKey },
          ExpressionAttributeValues: { ':shard': shard, ...(upTo === undefined ? {} : { ':upTo': upTo }) },
          ...(pageSize === undefined ? {} : { Limit: pageSize }),
        },
        operation,
        limitPerShard,
      );
      for await (const item of items) found.push(parseItem(schema, item, operation));
      return found;
    }),
  );
  return perShard.flat();
}

/** An account's place in the `bySlot` schedule index (`domain/schedule`), stored on its item. */
export function slotAttributes(address: string, interval: Interval, delegateWatch: Interval | null): { slotCadence: Interval; slotMinute: number } {
  const cadence = slotCadence(interval, delegateWatch);
  return { slotCadence: cadence, slotMinute: slotMinute(address, cadence) };
}
