import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RepositoryOptions } from './repositoryOptions';
import { storeCall } from './storeError';
import { tableName, type TableId } from './tableDefinitions';

/**
 * What every repository shares: its document client, its table's full name, the clock, its
 * options, and `call`, which runs one DynamoDB operation as a `StoreError` (or
 * `MissingTableError`) naming the operation and the table.
 */
export abstract class DynamoRepository<O extends RepositoryOptions = RepositoryOptions> {
  protected readonly table: string;
  protected readonly now: () => number;

  protected constructor(
    protected readonly client: DynamoDBDocumentClient,
    prefix: string,
    id: TableId,
    protected readonly options: O,
  ) {
    this.table = tableName(prefix, id);
    this.now = options.now ?? Date.now;
  }

  /** Runs one operation on this repository's table (`operation` as in `accounts.create`). */
  protected call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    return storeCall(operation, fn, this.table);
  }
}
