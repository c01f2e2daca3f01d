import * as z from 'zod';
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { CHANNEL_TEST_OUTCOMES } from '../domain/channelTestCall';
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
  outcome: z.enum(CHANNEL_TEST_OUTCOMES),
  /** What the destination answered, in plain words: never a URL or a secret. */
  message: z.string().min(1),
});

/** One Test pressed on the desk's channels page: who tested which channel when, and what came of it. */
export type ChannelTestRecord = z.output<typeof recordSchema>;

const itemSchema = recordSchema.extend({ id: z.string(), expiresAt: z.number().int() });

/** How many of the latest tests the channels page lists. */
export const RECENT_CHANNEL_TESTS = 20;

/** The item holding the latest tests: slots `s0`…`s19`, each the test numbered `seq` (mod 20), `seq` the count so far. */
const RECENT_ID = `${DESK_CHANNEL_TEST_PREFIX}recent`;
const slotSchema = recordSchema.extend({ seq: z.number().int().min(1) });
const recentSchema = z.object({ seq: z.number().int().min(0).optional() }).catchall(z.unknown());
const slotName = (seq: number): string => `s${seq % RECENT_CHANNEL_TESTS}`;

/**
 * The audit of the desk's channel tests (table `desk`, key `channel-test#<random id>`): written once
 * (a conditional put), never changed, kept 90 days. The channels page reads one back by its id to
 * show its outcome after the redirect, and lists the latest {@link RECENT_CHANNEL_TESTS} from one
 * item (`channel-test#recent`) that each test also writes into, in turn: no read scans the table.
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
    await this.remember(record);
  }

  /**
   * Writes `record` into the latest tests: takes the next number (an atomic `ADD`), then its slot
   * unless a later test already holds it (two tests at once each take their own number).
   */
  private async remember(record: ChannelTestRecord): Promise<void> {
    const expiresAt = toTtlSeconds(record.at + CHANNEL_TEST_KEPT_MS);
    const counted = await this.call('deskChannelTests.remember', () =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { id: RECENT_ID },
          UpdateExpression: 'ADD seq :one SET expiresAt = :expiresAt',
          ExpressionAttributeValues: { ':one': 1, ':expiresAt': expiresAt },
          ReturnValues: 'UPDATED_NEW',
        }),
      ),
    );
    const seq = parseItem(z.object({ seq: z.number().int().min(1) }), counted.Attributes, 'deskChannelTests.remember').seq;
    await this.updateIfStill('deskChannelTests.remember', {
      Key: { id: RECENT_ID },
      UpdateExpression: 'SET #slot = :entry',
      ConditionExpression: 'attribute_not_exists(#slot) OR #slot.seq < :seq',
      ExpressionAttributeNames: { '#slot': slotName(seq) },
      ExpressionAttributeValues: { ':entry': parseItem(slotSchema, { ...record, seq }, 'deskChannelTests.remember'), ':seq': seq },
    });
  }

  /** The latest {@link RECENT_CHANNEL_TESTS} tests still kept, newest first (one `GetItem`). */
  async recent(): Promise<ChannelTestRecord[]> {
    const out = await this.call('deskChannelTests.recent', () =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { id: RECENT_ID }, ConsistentRead: true })),
    );
    if (!out.Item) return [];
    const item = parseItem(recentSchema, out.Item, 'deskChannelTests.recent');
    const now = this.now();
    return Array.from({ length: RECENT_CHANNEL_TESTS }, (_, i) => item[`s${i}`])
      .filter((slot) => slot !== undefined)
      .map((slot) => parseItem(slotSchema, slot, 'deskChannelTests.recent'))
      .filter((slot) => slot.at + CHANNEL_TEST_KEPT_MS > now)
      .sort((a, b) => b.seq - a.seq)
      .map(({ seq: _seq, ...record }) => record);
  }

  /** The test recorded under `id`; `null` when there is none or it has expired. */
  async get(id: string): Promise<ChannelTestRecord | null> {
    const item = await this.getLiveItem('deskChannelTests.get', { id: DESK_CHANNEL_TEST_PREFIX + id }, itemSchema);
    if (!item) return null;
    const { id: _id, expiresAt: _expires, ...record } = item;
    return record;
  }
}
