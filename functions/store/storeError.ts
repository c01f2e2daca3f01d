import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

/** A DynamoDB call failed for a reason other than an expected conditional outcome. */
export class StoreError extends Error {
  override readonly name: string = 'StoreError';
  constructor(
    /** What was being done, e.g. `accounts.create`. */
    readonly operation: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${operation}: ${message}`, options);
  }
}

/** A batch write or read still had unprocessed items after its bounded retries. */
export class UnprocessedItemsError extends StoreError {
  override readonly name = 'UnprocessedItemsError';
  constructor(
    operation: string,
    /** How many items were left unprocessed. */
    readonly unprocessed: number,
    readonly attempts: number,
  ) {
    super(operation, `${unprocessed} item(s) still unprocessed after ${attempts} attempts (throttled)`);
  }
}

/** True when `error` is DynamoDB's answer to a failed `ConditionExpression`. */
export function isConditionalCheckFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/** Runs one store operation, turning any unexpected failure into a `StoreError` that keeps the cause. */
export async function storeCall<T>(operation: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof StoreError) throw error;
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new StoreError(operation, message, { cause: error });
  }
}

/**
 * The item a failed conditional write found, when the request asked for
 * `ReturnValuesOnConditionCheckFailure: 'ALL_OLD'` (undefined if there was none).
 */
export function itemOfFailedCondition(error: unknown): Record<string, unknown> | undefined {
  const item = (error as { Item?: Record<string, AttributeValue> } | undefined)?.Item;
  return item ? unmarshall(item) : undefined;
}
