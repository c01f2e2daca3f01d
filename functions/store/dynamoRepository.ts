import { UpdateCommand, type DynamoDBDocumentClient, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { RepositoryOptions } from './repositoryOptions';
import { isConditionalCheckFailed, storeCall } from './errors';
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

  /**
   * Runs one conditional write (`call`): `applied` when it was written, `refused(error)` when its
   * condition failed (the error holds the stored item when the request asked for `ALL_OLD`).
   */
  protected conditionalWrite<const A, const B>(operation: string, write: () => Promise<unknown>, applied: A, refused: (error: unknown) => B): Promise<A | B> {
    return this.call(operation, async () => {
      try {
        await write();
        return applied;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return refused(error);
        throw error;
      }
    });
  }

  /** One conditional `UpdateCommand` on this table (`conditionalWrite`): `applied` when it was written, `refused(error)` when its condition failed. */
  protected conditionalUpdate<const A, const B>(
    operation: string,
    update: Omit<UpdateCommandInput, 'TableName'>,
    applied: A,
    refused: (error: unknown) => B,
  ): Promise<A | B> {
    return this.conditionalWrite(operation, () => this.client.send(new UpdateCommand({ TableName: this.table, ...update })), applied, refused);
  }
}
