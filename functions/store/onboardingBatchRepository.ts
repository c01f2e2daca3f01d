import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { DynamoRepository } from './dynamoRepository';
import { parseItem } from './parseItem';
import { queryAll } from './queryAll';
import type { RepositoryOptions } from './repositoryOptions';

const INDEX = 'byBatch';
/** Index entries the first page of a walk reads; each further page reads four times more, up to `MAX_PAGE`. */
const FIRST_PAGE = 5;
const MAX_PAGE = 1_000;

/** What `byBatch` holds of an account: its keys, and `polled` (absent on items from before it existed: those were polled). */
const memberSchema = z.object({ address: z.string().min(1), createdAt: z.number().int(), polled: z.boolean().optional() });

/** Where a walk through a batch's members, in address order, stopped. */
export interface BatchWalk {
  /** The last member passed: every member up to it had its first poll (`null`: none passed). */
  readonly through: string | null;
  /** The first member after `through` still waiting for its first poll, or `null`: every member had it. */
  readonly waitingFor: string | null;
}

/**
 * The members of an onboarding batch (the accounts one `accounts add` or `import` run created:
 * they share `createdAt`), found by key in the `byBatch` index of the `accounts` table (partition
 * `createdAt`, sort `address`, projecting `polled`), never by reading every account.
 */
export class OnboardingBatchRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'accounts', options);
  }

  /**
   * Walks the batch's members in address order from after `after` (a previous walk's `through`),
   * passing each that had its first poll, and stops at the first still waiting. The index is
   * eventually consistent, so a member it shows unpolled is read again from the table
   * (`GetItem`, consistent) before the walk stops at it; a member removed meanwhile is passed.
   * Pages grow as the walk passes members, so a walk reads about what it passes plus a first page.
   */
  async walk(createdAt: number, after: string | null): Promise<BatchWalk> {
    let through = after;
    let limit = FIRST_PAGE;
    for (;;) {
      const out = await this.call('onboardingBatches.walk', () =>
        this.client.send(
          new QueryCommand({
            TableName: this.table,
            IndexName: INDEX,
            KeyConditionExpression: through === null ? '#batch = :batch' : '#batch = :batch AND #address > :after',
            ExpressionAttributeNames: { '#batch': 'createdAt', ...(through === null ? {} : { '#address': 'address' }) },
            ExpressionAttributeValues: { ':batch': createdAt, ...(through === null ? {} : { ':after': through }) },
            Limit: limit,
          }),
        ),
      );
      for (const item of out.Items ?? []) {
        const member = parseItem(memberSchema, item, 'onboardingBatches.walk');
        if (member.polled === false && !(await this.polledNow(member.address))) return { through, waitingFor: member.address };
        through = member.address;
      }
      if (!out.LastEvaluatedKey) return { through, waitingFor: null };
      limit = Math.min(MAX_PAGE, limit * 4);
    }
  }

  /** The addresses of the batch's members, in address order (one `Query` page per 1 MB of index entries). */
  async addresses(createdAt: number): Promise<string[]> {
    const found: string[] = [];
    const items = queryAll(
      this.client,
      {
        TableName: this.table,
        IndexName: INDEX,
        KeyConditionExpression: '#batch = :batch',
        ExpressionAttributeNames: { '#batch': 'createdAt' },
        ExpressionAttributeValues: { ':batch': createdAt },
      },
      'onboardingBatches.addresses',
    );
    for await (const item of items) found.push(parseItem(memberSchema, item, 'onboardingBatches.addresses').address);
    return found;
  }

  /** Whether the account had its first poll, read consistently from the table; an account no longer tracked counts as done. */
  private async polledNow(address: string): Promise<boolean> {
    const out = await this.call('onboardingBatches.polledNow', () =>
      this.client.send(
        new GetCommand({
          TableName: this.table,
          Key: { address },
          ConsistentRead: true,
          ProjectionExpression: '#address, #polled',
          ExpressionAttributeNames: { '#address': 'address', '#polled': 'polled' },
        }),
      ),
    );
    if (!out.Item) return true;
    return out.Item['polled'] !== false;
  }
}
