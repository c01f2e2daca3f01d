import * as z from 'zod';
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGetAll } from './batchGet';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';
import { DynamoRepository } from './dynamoRepository';

/** Why mail to an address stopped. */
export type SuppressionReason = 'bounce' | 'complaint' | 'unsubscribe';

const reasonSchema = z.enum(['bounce', 'complaint', 'unsubscribe']);

/** A suppressed address: why and since when. */
export interface Suppression {
  /** Lower-cased. */
  readonly email: string;
  readonly reason: SuppressionReason;
  readonly suppressedAt: number;
}

const suppressionSchema = z.object({ email: z.string(), reason: reasonSchema, suppressedAt: z.number() });

/** Addresses that must not be mailed (table `suppressions`, key `email`, lower-cased). */
export class SuppressionRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'suppressions', options);
  }

  /** Stops mail to `email` (idempotent; the latest reason is kept). */
  async suppress(email: string, reason: SuppressionReason): Promise<void> {
    const valid = parseItem(reasonSchema, reason, 'suppressions.suppress');
    await this.call('suppressions.suppress', () =>
      this.client.send(new PutCommand({ TableName: this.table, Item: { email: normalize(email), reason: valid, suppressedAt: this.now() } })),
    );
  }

  /** Allows mail to `email` again. */
  async unsuppress(email: string): Promise<void> {
    await this.call('suppressions.unsuppress', () => this.client.send(new DeleteCommand({ TableName: this.table, Key: { email: normalize(email) } })));
  }

  async isSuppressed(email: string): Promise<boolean> {
    const out = await this.call('suppressions.isSuppressed', () =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { email: normalize(email) }, ConsistentRead: true })),
    );
    return out.Item !== undefined;
  }

  /** The suppressions of those of `emails` that are suppressed, by lower-cased address (one `BatchGetItem` per 100). */
  async lookup(emails: readonly string[]): Promise<Map<string, Suppression>> {
    const keys = [...new Set(emails.map(normalize))].map((email) => ({ email }));
    const found = await batchGetAll(this.client, this.table, keys, 'suppressions.lookup', this.options.batch);
    const entries = found.map((item) => parseItem(suppressionSchema, item, 'suppressions.lookup'));
    return new Map(entries.map((entry) => [entry.email, entry]));
  }

  /** The addresses of `emails` that are not suppressed, in their order (one `BatchGetItem` per 100). */
  async filter(emails: readonly string[]): Promise<string[]> {
    const keys = [...new Set(emails.map(normalize))].map((email) => ({ email }));
    const found = await batchGetAll(this.client, this.table, keys, 'suppressions.filter', this.options.batch);
    const suppressed = new Set(found.map((item) => String(item['email'])));
    return emails.filter((email) => !suppressed.has(normalize(email)));
  }
}

function normalize(email: string): string {
  return email.trim().toLowerCase();
}
