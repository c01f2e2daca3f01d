import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { BacklogEntry } from '../domain/combinedNotice';
import { MAIL_CATEGORIES } from '../domain/mailCategory';
import { NOTICE_TYPES } from '../domain/notice';
import { batchWriteAll } from './batchWrite';
import { DynamoRepository } from './dynamoRepository';
import { parseItem } from './parseItem';
import { scopeQuery } from './scopeQuery';
import type { RepositoryOptions } from './repositoryOptions';

const entrySchema = z.object({
  id: z.string().min(1),
  type: z.enum(NOTICE_TYPES),
  category: z.enum(MAIL_CATEGORIES),
  severity: z.enum(['critical', 'warning', 'info']),
  title: z.string(),
  account: z.object({ address: z.string(), label: z.string().nullable() }),
  at: z.number(),
}) satisfies z.ZodType<BacklogEntry, unknown>;

const FLUSH_SCOPE = 'backlog-flush';
const backlogScope = (channel: string) => `backlog#${channel}`;

/**
 * Notices waiting for a rate-limited destination, to be sent as one summary (table `channels`:
 * partition `backlog#<channel>`, one item per notice id, so parking a redelivered job again
 * changes nothing; and a flush marker per channel under `backlog-flush`, so one summary job is
 * queued per backlog). Kept apart from the channels' own partition, which `list` reads.
 */
export class ChannelBacklogRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'channels', options);
  }

  /**
   * Parks a notice; `flush: true` when no summary was pending for the channel (the caller then
   * queues one). The notice is written before the marker, and `take` removes the marker before
   * reading, so a notice parked while a summary is being taken is in it or in the next one.
   */
  async park(channel: string, entry: BacklogEntry): Promise<{ flush: boolean }> {
    const item = { scope: backlogScope(channel), name: entry.id, ...parseItem(entrySchema, entry, 'backlog.park') };
    await this.call('backlog.park', () => this.client.send(new PutCommand({ TableName: this.table, Item: item })));
    return { flush: await this.mark(channel) };
  }

  /** Whether a summary is pending for the channel: a notice parked now goes in it. */
  async pending(channel: string): Promise<boolean> {
    const out = await this.call('backlog.pending', () =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { scope: FLUSH_SCOPE, name: channel }, ConsistentRead: true })),
    );
    return out.Item !== undefined;
  }

  /** Ends the pending summary (a notice parked from now on queues the next) and reads what waits, oldest first. */
  async take(channel: string): Promise<BacklogEntry[]> {
    await this.call('backlog.unmark', () => this.client.send(new DeleteCommand({ TableName: this.table, Key: { scope: FLUSH_SCOPE, name: channel } })));
    return this.entries(channel);
  }

  /** What waits for the channel, oldest first. */
  async entries(channel: string): Promise<BacklogEntry[]> {
    const entries = await this.queryItems('backlog.entries', scopeQuery(backlogScope(channel)), (item) => parseItem(entrySchema, item, 'backlog.entries'));
    return entries.sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
  }

  /** Removes the entries a summary carried (or dropped). */
  async remove(channel: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await batchWriteAll(
      this.client,
      this.table,
      [...new Set(ids)].map((id) => ({ DeleteRequest: { Key: { scope: backlogScope(channel), name: id } } })),
      'backlog.remove',
    );
  }

  /** Puts the flush marker back (a summary that could not go yet); `true` when it was absent, so the caller queues the summary again. */
  async mark(channel: string): Promise<boolean> {
    return this.conditionalPut(
      'backlog.mark',
      {
        Item: { scope: FLUSH_SCOPE, name: channel, since: this.now() },
        ConditionExpression: 'attribute_not_exists(#name)',
        ExpressionAttributeNames: { '#name': 'name' },
      },
      true as const,
      () => false as const,
    );
  }
}
