import * as z from 'zod';
import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseItem } from './parseItem';
import { DynamoRepository } from './dynamoRepository';
import type { RepositoryOptions } from './repositoryOptions';

const auditRecordSchema = z.object({
  /** Unique per attempt (e.g. the link token id); with `at` it makes the key, so a retry does not duplicate. */
  id: z.string().min(1),
  address: z.string().min(1),
  /** When, epoch ms. */
  at: z.number().int().min(0),
  /** Who asked, e.g. `link:<tokenId>` or `cli`. */
  actor: z.string().min(1),
  /** What, e.g. `revoke-delegate`. */
  action: z.string().min(1),
  outcome: z.string().min(1),
  delegate: z.string().optional(),
  nonce: z.number().int().min(0).optional(),
  txSignature: z.string().optional(),
  /** The chain's message, verbatim. */
  message: z.string().optional(),
});

/** One audited action (every revocation attempt and its outcome). */
export type AuditRecord = z.infer<typeof auditRecordSchema>;

/** Audit trail per account (table `audit`, key `address` + `at` = `${ISO time}#${id}`). */
export class AuditRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'audit', options);
  }

  /** Appends a record; the same id at the same time twice is stored once. */
  async append(record: AuditRecord): Promise<{ kind: 'appended' } | { kind: 'exists' }> {
    const valid = parseItem(auditRecordSchema, record, 'audit.append');
    // The table's sort key is named `at`; the record's own `at` (ms) is kept as `atMs`.
    const { at, ...rest } = valid;
    const item = { ...rest, at: `${new Date(at).toISOString()}#${valid.id}`, atMs: at };
    return this.conditionalWrite(
      'audit.append',
      () => this.client.send(new PutCommand({ TableName: this.table, Item: item, ConditionExpression: 'attribute_not_exists(#at)', ExpressionAttributeNames: { '#at': 'at' } })),
      { kind: 'appended' },
      () => ({ kind: 'exists' }),
    );
  }

  /** The newest `limit` records of an account, newest first. */
  async listForAccount(address: string, limit: number): Promise<AuditRecord[]> {
    const out = await this.call('audit.listForAccount', () =>
      this.client.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'address = :address',
          ExpressionAttributeValues: { ':address': address },
          ScanIndexForward: false,
          Limit: Math.max(1, limit),
        }),
      ),
    );
    return (out.Items ?? []).map((item) => {
      const { atMs, at: _sortKey, ...rest } = item as Record<string, unknown>;
      return parseItem(auditRecordSchema, { ...rest, at: atMs }, 'audit.listForAccount');
    });
  }
}
