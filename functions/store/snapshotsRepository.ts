import * as z from 'zod';
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { intervalSchema, type Interval } from '../domain/interval';
import { portfolioSummarySchema, type PortfolioSummary } from '../domain/portfolioSummary';
import { SUMMARY_FIELDS, type SummaryField } from '../domain/summaryFields';
import { parseItem } from './parseItem';
import { queryAll } from './queryAll';
import type { RepositoryOptions } from './repositoryOptions';
import { isConditionalCheckFailed } from './errors';
import { isLive, toTtlSeconds } from './ttl';
import { DynamoRepository } from './dynamoRepository';

/** A summary as received at `polledAt`, with its change since the previous snapshot. */
export interface Snapshot {
  readonly address: string;
  readonly polledAt: number;
  readonly summary: PortfolioSummary;
  /** `current - previous` per summary field; null for the first snapshot. */
  readonly delta: Readonly<Record<SummaryField, number>> | null;
  readonly previousPolledAt: number | null;
  /** When the poll actually ran (`polledAt` may be the scheduled due time). */
  readonly fetchedAt?: number;
  /** The collection cursor after this poll, when the snapshot is the poll's commit record. */
  readonly cursorMs?: number | null;
  /** Curve points this poll added. */
  readonly newPoints?: number;
  /** The curve interval the cursor belongs to (absent on older snapshots: the account's interval). */
  readonly interval?: Interval;
  /** Epoch ms after which the snapshot is gone (stored as epoch seconds for TTL). */
  readonly expiresAt: number;
}

const deltaSchema = z.object(Object.fromEntries(SUMMARY_FIELDS.map((field) => [field, z.number()])) as Record<SummaryField, z.ZodNumber>);
const snapshotSchema = z.object({
  address: z.string().min(1),
  polledAt: z.number().int().min(0),
  summary: portfolioSummarySchema,
  delta: deltaSchema.nullable(),
  previousPolledAt: z.number().int().min(0).nullable(),
  fetchedAt: z.number().int().min(0).optional(),
  cursorMs: z.number().int().min(0).nullable().optional(),
  newPoints: z.number().int().min(0).optional(),
  interval: intervalSchema.optional(),
  expiresAt: z.number().min(0),
});

/** Summary snapshots (table `snapshots`, key `address` + `polledAt`), expiring by TTL. */
export class SnapshotsRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'snapshots', options);
  }

  /** Writes a snapshot unless one exists for the same poll time (so a redelivered poll writes nothing). */
  async put(snapshot: Snapshot): Promise<{ kind: 'written'; consumedWriteUnits: number } | { kind: 'exists' }> {
    const valid = parseItem(snapshotSchema, snapshot, 'snapshots.put');
    return this.call('snapshots.put', async () => {
      try {
        const out = await this.client.send(
          new PutCommand({
            TableName: this.table,
            Item: { ...valid, expiresAt: toTtlSeconds(valid.expiresAt) },
            ConditionExpression: 'attribute_not_exists(polledAt)',
            ReturnConsumedCapacity: 'TOTAL',
          }),
        );
        return { kind: 'written', consumedWriteUnits: out.ConsumedCapacity?.CapacityUnits ?? 0 };
      } catch (error) {
        if (isConditionalCheckFailed(error)) return { kind: 'exists' };
        throw error;
      }
    });
  }

  /** The newest live snapshot, or null. */
  async latest(address: string): Promise<Snapshot | null> {
    return this.newest('snapshots.latest', 'address = :address', { ':address': address });
  }

  /** The newest live snapshot polled strictly before `ts`, or null. */
  async latestBefore(address: string, ts: number): Promise<Snapshot | null> {
    return this.newest('snapshots.latestBefore', 'address = :address AND polledAt < :ts', { ':address': address, ':ts': ts });
  }

  private async newest(operation: string, condition: string, values: Record<string, unknown>): Promise<Snapshot | null> {
    const items = queryAll(
      this.client,
      { TableName: this.table, KeyConditionExpression: condition, ExpressionAttributeValues: values, ScanIndexForward: false, Limit: 5 },
      operation,
    );
    const now = this.now();
    for await (const item of items) {
      const stored = parseItem(snapshotSchema, item, operation);
      if (isLive(stored.expiresAt, now)) return toSnapshot(stored);
    }
    return null;
  }
}

function toSnapshot(stored: z.infer<typeof snapshotSchema>): Snapshot {
  const { expiresAt, fetchedAt, cursorMs, newPoints, interval, ...rest } = stored;
  return {
    ...rest,
    expiresAt: expiresAt * 1000,
    ...(fetchedAt === undefined ? {} : { fetchedAt }),
    ...(cursorMs === undefined ? {} : { cursorMs }),
    ...(newPoints === undefined ? {} : { newPoints }),
    ...(interval === undefined ? {} : { interval }),
  };
}
