import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { backoff, type BackoffOptions } from '../shared/backoff';
import { chunk, mapConcurrent } from '../shared/concurrency';
import { storeCall, UnprocessedItemsError } from './errors';

type Key = Record<string, string | number>;

/** DynamoDB's limit of keys per `BatchGetItem` call. */
export const BATCH_GET_LIMIT = 100;

/** How a batch read reads: strongly consistent unless `consistent` is false (half the read units; a write of the last second may not show yet). */
export interface BatchGetOptions extends BackoffOptions {
  readonly consistent?: boolean;
}

/**
 * Reads items by key with `BatchGetItem` in chunks of 100 (strongly consistent unless asked
 * otherwise), retrying `UnprocessedKeys` with backoff. Returns the items found, in no particular order.
 */
export async function batchGetAll(
  client: DynamoDBDocumentClient,
  table: string,
  keys: readonly Key[],
  operation: string,
  options: BatchGetOptions = {},
): Promise<Record<string, unknown>[]> {
  const consistent = options.consistent ?? true;
  const policy = backoff(options);
  const found = await mapConcurrent(chunk(keys, BATCH_GET_LIMIT), 4, async (batch) => {
    const items: Record<string, unknown>[] = [];
    let pending: Key[] = batch;
    for (let attempt = 1; ; attempt++) {
      const out = await storeCall(
        operation,
        () => client.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: consistent } } })),
        table,
      );
      items.push(...(out.Responses?.[table] ?? []));
      pending = (out.UnprocessedKeys?.[table]?.Keys ?? []) as Key[];
      if (pending.length === 0) return items;
      if (attempt >= policy.maxAttempts) throw new UnprocessedItemsError(operation, pending.length, attempt);
      await policy.wait(attempt);
    }
  });
  return found.flat();
}
