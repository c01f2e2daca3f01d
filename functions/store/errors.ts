import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { SubjectError } from '../shared/subjectError';
import { describeError } from '../shared/describeError';

/** DynamoDB errors that pass: throttling and service-side failures. */
const RETRYABLE = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
]);

/** A DynamoDB call failed for a reason other than an expected conditional outcome. */
export class StoreError extends SubjectError {
  override readonly name: string = 'StoreError';

  /** What was being done, e.g. `accounts.create` (`new StoreError(operation, details)`). */
  get operation(): string {
    return this.subject;
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
    super(operation, `${unprocessed} item(s) still unprocessed after ${attempts} attempts (throttled)`, { retryable: true });
  }
}

/** The table an operation needed does not exist (locally: not created yet). */
export class MissingTableError extends StoreError {
  override readonly name = 'MissingTableError';
  constructor(
    operation: string,
    /** The table's full name, prefix included. */
    readonly table: string,
    options: { cause?: unknown } = {},
  ) {
    super(operation, `table ${table} does not exist`, options);
  }
}

/** True when `error` is DynamoDB's answer to a failed `ConditionExpression`. */
export function isConditionalCheckFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/**
 * Runs one store operation, turning any unexpected failure into a `StoreError` that keeps the
 * cause; with the `table` it works on, a missing table is a `MissingTableError` naming it.
 */
export async function storeCall<T>(operation: string, fn: () => Promise<T>, table?: string): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof StoreError) throw error;
    const name = error instanceof Error ? error.name : '';
    if (name === 'ResourceNotFoundException' && table !== undefined) throw new MissingTableError(operation, table, { cause: error });
    throw new StoreError(operation, describeError(error, { audience: 'log' }), { cause: error, retryable: RETRYABLE.has(name) });
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
