import * as z from 'zod';
import { type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll } from './batchWrite';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';
import { DynamoRepository } from './dynamoRepository';

const ms = z.number().int().min(0);

const delegateViewSchema = z.object({
  address: z.string().min(1),
  delegate: z.string().min(1),
  name: z.string().nullable(),
  expiryMs: ms.nullable(),
  isWebClient: z.boolean(),
  firstSeenAt: ms,
  lastSeenAt: ms,
  warningsSent: z.array(z.number()),
  expiredNoticeSent: z.boolean(),
  removedAt: ms.nullable(),
  /** How many times the delegate has appeared; older items lack it and count as 1. */
  generation: z.number().int().min(1).default(1),
});

/** What is remembered about one delegate of one account (tombstones, with `removedAt`, included). */
export type DelegateView = z.infer<typeof delegateViewSchema>;

/** Delegates last seen per account (table `delegates`, key `address` + `delegate`). */
export class DelegateViewRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'delegates', options);
  }

  /** Every delegate view of an account, removed ones included, by delegate address. */
  async listForAccount(address: string): Promise<DelegateView[]> {
    return this.queryItems(
      'delegates.listForAccount',
      {
        // Past the `#` items unknown-key protection keeps here (`knownDelegatesRepository`): '$' sorts right after '#'.
        KeyConditionExpression: 'address = :address AND delegate >= :first',
        ExpressionAttributeValues: { ':address': address, ':first': '$' },
        ConsistentRead: true,
      },
      (item) => parseItem(delegateViewSchema, item, 'delegates.listForAccount'),
    );
  }

  /** Writes whole views (batched; the latest of duplicates of one key wins). */
  async putMany(views: readonly DelegateView[]): Promise<{ items: number; consumedWriteUnits: number }> {
    const byKey = new Map<string, DelegateView>();
    for (const view of views) {
      const valid = parseItem(delegateViewSchema, view, 'delegates.putMany');
      byKey.set(`${valid.address}#${valid.delegate}`, valid);
    }
    const requests = [...byKey.values()].map((item) => ({ PutRequest: { Item: item } }));
    return batchWriteAll(this.client, this.table, requests, 'delegates.putMany', this.options.batch);
  }

  /** Marks a listed delegate as gone since `removedAt`, keeping its record; `not-found`: no view of it, or one already removed (its time kept). */
  async markRemoved(address: string, delegate: string, removedAt: number): Promise<{ kind: 'marked' } | { kind: 'not-found' }> {
    return this.conditionalUpdate(
      'delegates.markRemoved',
      {
        Key: { address, delegate },
        UpdateExpression: 'SET removedAt = :removedAt',
        ConditionExpression: 'attribute_exists(delegate) AND removedAt = :listed',
        ExpressionAttributeValues: { ':removedAt': removedAt, ':listed': null },
      },
      { kind: 'marked' },
      () => ({ kind: 'not-found' }),
    );
  }
}
