import * as z from 'zod';
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoRepository } from './dynamoRepository';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';
import { toTtlSeconds } from './ttl';

/** Key prefix of the desk's channel tests in the `desk` table. */
export const DESK_CHANNEL_TEST_PREFIX = 'channel-test#';

/** How long a channel test's record is kept: as long as the accounts' deliveries. */
export const CHANNEL_TEST_KEPT_MS = 90 * 86_400_000;

const recordSchema = z.object({
  channel: z.string().min(1),
  /** The operator who pressed Test (the session's email). */
  by: z.email(),
  at: z.number().int().min(0),
  /** `sent`; `failed` (the destination refused or could not be reached); `throttled` (still throttling after the waits); `nothing-to-send`. */
  outcome: z.enum(['sent', 'failed', 'throttled', 'nothing-to-send']),
  /** What the destination answered, in plain words: never a URL or a secret. */
  message: z.string().min(1),
});

/** One Test pressed on the desk's channels page: who tested which channel when, and what came of it. */
export type ChannelTestRecord = z.output<typeof recordSchema>;

const itemSchema = recordSchema.extend({ id: z.string(), expiresAt: z.number().int() });

/**
 * The audit of the desk's channel tests (table `desk`, key `channel-test#<random id>`): written once
 * (a conditional put), never changed, kept 90 days. The channels page reads one back by its id to
 * show its outcome after the redirect.
 */
export class DeskChannelTestRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'desk', options);
  }

  /** Records `record` under `id` (a random id: a taken one is a `StoreError`). */
  async record(id: string, record: ChannelTestRecord): Promise<void> {
    const item = parseItem(
      itemSchema,
      { id: DESK_CHANNEL_TEST_PREFIX + id, ...record, expiresAt: toTtlSeconds(record.at + CHANNEL_TEST_KEPT_MS) },
      'deskChannelTests.record',
    );
    await this.call('deskChannelTests.record', () =>
      this.client.send(new PutCommand({ TableName: this.table, Item: item, ConditionExpression: 'attribute_not_exists(id)' })),
    );
  }

  /** The test recorded under `id`; `null` when there is none or it has expired. */
  async get(id: string): Promise<ChannelTestRecord | null> {
    const item = await this.getLiveItem('deskChannelTests.get', { id: DESK_CHANNEL_TEST_PREFIX + id }, itemSchema);
    if (!item) return null;
    const { id: _id, expiresAt: _expires, ...record } = item;
    return record;
  }
}
