import { BatchWriteCommand, type BatchWriteCommandInput, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { backoff, type BackoffOptions } from '../shared/backoff';
import { chunk, mapConcurrent } from '../shared/concurrency';
import { storeCall, UnprocessedItemsError } from './errors';

/** One put or delete of a `BatchWriteItem` request. */
export type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

export interface BatchWriteOptions extends BackoffOptions {
  /** Chunks of 25 in flight at once; default 4. */
  readonly concurrency?: number;
}

export interface BatchWriteResult {
  /** Items written (puts and deletes). */
  readonly items: number;
  /** Write capacity units DynamoDB reported (`ReturnConsumedCapacity: TOTAL`), retries included. */
  readonly consumedWriteUnits: number;
}

/** DynamoDB's limit of requests per `BatchWriteItem` call. */
export const BATCH_WRITE_LIMIT = 25;

/**
 * Writes every request to one table with `BatchWriteItem` in chunks of 25, retrying
 * `UnprocessedItems` with exponential backoff and jitter; throws `UnprocessedItemsError`
 * when items are still unprocessed after the bounded attempts. The caller must not put two
 * requests for the same key in one call (DynamoDB rejects such a chunk).
 */
export async function batchWriteAll(
  client: DynamoDBDocumentClient,
  table: string,
  requests: readonly WriteRequest[],
  operation: string,
  options: BatchWriteOptions = {},
): Promise<BatchWriteResult> {
  const policy = backoff(options);
  const units = await mapConcurrent(chunk(requests, BATCH_WRITE_LIMIT), options.concurrency ?? 4, async (batch) => {
    let pending: WriteRequest[] = batch;
    let consumed = 0;
    for (let attempt = 1; ; attempt++) {
      const out = await storeCall(
        operation,
        () => client.send(new BatchWriteCommand({ RequestItems: { [table]: pending }, ReturnConsumedCapacity: 'TOTAL' })),
        table,
      );
      consumed += (out.ConsumedCapacity ?? []).reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      pending = out.UnprocessedItems?.[table] ?? [];
      if (pending.length === 0) return consumed;
      if (attempt >= policy.maxAttempts) throw new UnprocessedItemsError(operation, pending.length, attempt);
      await policy.wait(attempt);
    }
  });
  return { items: requests.length, consumedWriteUnits: units.reduce((a, b) => a + b, 0) };
}
