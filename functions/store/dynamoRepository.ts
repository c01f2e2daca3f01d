import type * as z from 'zod';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DeleteCommandInput,
  type DynamoDBDocumentClient,
  type PutCommandInput,
  type QueryCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { queryAll } from './queryAll';
import type { RepositoryOptions } from './repositoryOptions';
import { isConditionalCheckFailed, storeCall } from './errors';
import { parseItem } from './parseItem';
import { isLive } from './ttl';
import { tableName, type TableId } from './tableDefinitions';

/** A command's input on this repository's table: everything but its name. */
type TableInput<I> = Omit<I, 'TableName'>;

/** What a conditional write answers when its condition failed, from the error. */
type Refusal<B> = (error: unknown) => B;

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
  protected conditionalWrite<const A, const B>(operation: string, write: () => Promise<unknown>, applied: A, refused: Refusal<B>): Promise<A | B> {
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
  protected conditionalUpdate<const A, const B>(operation: string, update: TableInput<UpdateCommandInput>, applied: A, refused: Refusal<B>): Promise<A | B> {
    return this.conditionalWrite(operation, () => this.client.send(new UpdateCommand({ TableName: this.table, ...update })), applied, refused);
  }

  /** A conditional `UpdateCommand` whose failed condition means there is nothing left to do (a later state won, or the item is gone). */
  protected async updateIfStill(operation: string, update: TableInput<UpdateCommandInput>): Promise<void> {
    await this.conditionalUpdate(operation, update, undefined, () => undefined);
  }

  /** One conditional `PutCommand` on this table (`conditionalWrite`). */
  protected conditionalPut<const A, const B>(operation: string, put: TableInput<PutCommandInput>, applied: A, refused: Refusal<B>): Promise<A | B> {
    return this.conditionalWrite(operation, () => this.client.send(new PutCommand({ TableName: this.table, ...put })), applied, refused);
  }

  /** One conditional `DeleteCommand` on this table (`conditionalWrite`). */
  protected conditionalDelete<const A, const B>(operation: string, remove: TableInput<DeleteCommandInput>, applied: A, refused: Refusal<B>): Promise<A | B> {
    return this.conditionalWrite(operation, () => this.client.send(new DeleteCommand({ TableName: this.table, ...remove })), applied, refused);
  }

  /**
   * The item at `key` (a strongly consistent `GetItem`), validated with `schema` (`parseItem`);
   * `null` when there is none or its `expiresAt` (TTL seconds) has passed but DynamoDB has not
   * removed it yet.
   */
  protected async getLiveItem<S extends z.ZodType<{ readonly expiresAt: number }>>(
    operation: string,
    key: Record<string, unknown>,
    schema: S,
  ): Promise<z.output<S> | null> {
    const out = await this.call(operation, () => this.client.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true })));
    if (!out.Item) return null;
    const item = parseItem(schema, out.Item, operation);
    return isLive(item.expiresAt, this.now()) ? item : null;
  }

  /**
   * One page of a `Query`, newest first: up to `limit` items read with `read` (`null`: not one of
   * this query's items, left out before counting), the expired ones (TTL passed, not removed yet)
   * left out of `live`, and `last`, the last one on the page when an older page exists (`null` at
   * the end). It asks for one more item than shown to tell: a `LastEvaluatedKey` alone may point at
   * an empty page.
   */
  protected async pageNewestFirst<T extends { readonly expiresAt: number }>(
    operation: string,
    query: TableInput<QueryCommandInput>,
    limit: number,
    read: (item: Record<string, unknown>) => T | null,
  ): Promise<{ readonly live: T[]; readonly last: T | null }> {
    const out = await this.call(operation, () =>
      this.client.send(new QueryCommand({ TableName: this.table, ...query, ScanIndexForward: false, Limit: limit + 1 })),
    );
    const items = (out.Items ?? []).map(read).filter((item): item is T => item !== null);
    const shown = items.slice(0, limit);
    const now = this.now();
    return { live: shown.filter((item) => isLive(item.expiresAt, now)), last: items.length > limit ? (shown.at(-1) ?? null) : null };
  }

  /** Every item a `Query` on this table finds (page by page), each read with `read`. */
  protected async queryItems<T>(operation: string, query: TableInput<QueryCommandInput>, read: (item: Record<string, unknown>) => T): Promise<T[]> {
    const out: T[] = [];
    for await (const item of queryAll(this.client, { TableName: this.table, ...query }, operation)) out.push(read(item));
    return out;
  }

  /**
   * Moves a cursor (the number `attribute` of the item at `key`) from `expected` (null: none yet)
   * to `next`, only if it still holds `expected`: `lost` when another run moved it first.
   */
  protected advanceCursorAt(
    operation: string,
    key: Record<string, string>,
    attribute: string,
    expected: number | null,
    next: number,
  ): Promise<{ kind: 'advanced' } | { kind: 'lost' }> {
    return this.conditionalUpdate(
      operation,
      {
        Key: key,
        UpdateExpression: 'SET #cursor = :next',
        ConditionExpression: expected === null ? 'attribute_not_exists(#cursor)' : '#cursor = :expected',
        ExpressionAttributeNames: { '#cursor': attribute },
        ExpressionAttributeValues: { ':next': next, ...(expected === null ? {} : { ':expected': expected }) },
      },
      { kind: 'advanced' } as const,
      () => ({ kind: 'lost' }) as const,
    );
  }
}
