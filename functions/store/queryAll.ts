import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { storeCall } from './errors';

/**
 * Runs a `Query` page by page, yielding items until the result ends or `limit` items were yielded.
 * `limit` counts items after any `FilterExpression`; each page still reads at most `Limit`.
 */
export async function* queryAll(
  client: DynamoDBDocumentClient,
  input: QueryCommandInput,
  operation: string,
  limit = Number.POSITIVE_INFINITY,
): AsyncGenerator<Record<string, unknown>> {
  let startKey: Record<string, unknown> | undefined;
  let yielded = 0;
  do {
    const page = await storeCall(
      operation,
      () => client.send(new QueryCommand({ ...input, ...(startKey ? { ExclusiveStartKey: startKey } : {}) })),
      input.TableName,
    );
    for (const item of page.Items ?? []) {
      if (yielded >= limit) return;
      yielded++;
      yield item;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey && yielded < limit);
}
