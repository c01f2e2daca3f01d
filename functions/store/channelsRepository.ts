import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { channelRecordSchema, channelStateSchema, type ChannelRecord, type ChannelState, type LastDelivery } from '../domain/channel';
import { DynamoRepository } from './dynamoRepository';
import { parseItem } from './parseItem';
import { scopeQuery } from './scopeQuery';
import type { RepositoryOptions } from './repositoryOptions';

const SCOPE = 'channel';

/**
 * Channels (table `channels`, key `scope = channel`, `name`): their configuration, the accounts
 * routed to them, their state and last delivery. Secrets are stored as references only (the
 * schema refuses anything else).
 */
export class ChannelsRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'channels', options);
  }

  /** Stores a new channel; `exists` when the name is taken. */
  create(record: ChannelRecord): Promise<{ kind: 'created' } | { kind: 'exists' }> {
    const item = { scope: SCOPE, ...parseItem(channelRecordSchema, record, 'channels.create') };
    return this.conditionalPut(
      'channels.create',
      { Item: item, ConditionExpression: 'attribute_not_exists(#name)', ExpressionAttributeNames: { '#name': 'name' } },
      { kind: 'created' } as const,
      () => ({ kind: 'exists' }) as const,
    );
  }

  /**
   * Replaces a channel read before, unless it changed since (`updatedAt` of `previous`):
   * `conflict` then, and nothing is written.
   */
  replace(previous: ChannelRecord, next: ChannelRecord): Promise<{ kind: 'replaced' } | { kind: 'conflict' }> {
    const item = { scope: SCOPE, ...parseItem(channelRecordSchema, next, 'channels.replace') };
    return this.conditionalPut(
      'channels.replace',
      { Item: item, ConditionExpression: 'updatedAt = :previous', ExpressionAttributeValues: { ':previous': previous.updatedAt } },
      { kind: 'replaced' } as const,
      () => ({ kind: 'conflict' }) as const,
    );
  }

  async get(name: string): Promise<ChannelRecord | null> {
    const out = await this.call('channels.get', () =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { scope: SCOPE, name }, ConsistentRead: true })),
    );
    return out.Item ? this.parse(out.Item, 'channels.get') : null;
  }

  /** Every channel, by name (one Query of the channels' partition). */
  async list(): Promise<ChannelRecord[]> {
    return this.queryItems('channels.list', scopeQuery(SCOPE), (item) => this.parse(item, 'channels.list'));
  }

  /** Removes a channel; `not-found` when there was none. */
  remove(name: string): Promise<{ kind: 'removed' } | { kind: 'not-found' }> {
    return this.conditionalDelete(
      'channels.remove',
      { Key: { scope: SCOPE, name }, ConditionExpression: 'attribute_exists(#name)', ExpressionAttributeNames: { '#name': 'name' } },
      { kind: 'removed' } as const,
      () => ({ kind: 'not-found' }) as const,
    );
  }

  /**
   * Sets the channel's link epoch to `at`: the links of its chat buttons issued until then no
   * longer work. `updatedAt` moves on, so a concurrent `replace` read before conflicts.
   */
  revokeLinks(name: string, at: number): Promise<{ kind: 'revoked' } | { kind: 'not-found' }> {
    return this.conditionalUpdate(
      'channels.revokeLinks',
      {
        Key: { scope: SCOPE, name },
        UpdateExpression: 'SET linksRevokedAt = :at, updatedAt = if_not_exists(updatedAt, :zero) + :one',
        ConditionExpression: 'attribute_exists(#name)',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: { ':at': at, ':zero': 0, ':one': 1 },
      },
      { kind: 'revoked' } as const,
      () => ({ kind: 'not-found' }) as const,
    );
  }

  /** Sets the channel's state (broken with its reason, or ok again); nothing when the channel is gone. */
  async setState(name: string, state: ChannelState): Promise<void> {
    await this.updateExisting('channels.setState', name, 'SET #state = :state', { ':state': state });
  }

  /**
   * Marks the channel broken unless it already is: `marked` for the one caller that changed it,
   * `unchanged` when it was broken or is gone. With `account`, the break owes that account's
   * recipients its notice (not queued yet); without (`channels test`: the person testing saw the
   * refusal), it owes none. A channel already broken keeps its break, and the notice it may owe.
   * `updatedAt` moves on, so a `replace` read before conflicts instead of writing the old state back.
   */
  async markBroken(name: string, reason: string, since: number, account?: string): Promise<{ kind: 'marked' } | { kind: 'unchanged' }> {
    const broken = { kind: 'broken', reason, since, ...(account === undefined ? {} : { notice: { account, queuedAt: null } }) };
    const state = parseItem(channelStateSchema, broken, 'channels.markBroken');
    return this.conditionalUpdate(
      'channels.markBroken',
      {
        Key: { scope: SCOPE, name },
        UpdateExpression: 'SET #state = :state, updatedAt = if_not_exists(updatedAt, :zero) + :one',
        ConditionExpression: 'attribute_exists(#name) AND #state.#kind <> :broken',
        ExpressionAttributeNames: { '#name': 'name', '#state': 'state', '#kind': 'kind' },
        ExpressionAttributeValues: { ':state': state, ':broken': 'broken', ':zero': 0, ':one': 1 },
      },
      { kind: 'marked' } as const,
      () => ({ kind: 'unchanged' }) as const,
    );
  }

  /**
   * Records that the notice of the channel's break at `since` went on the notify queue at `at`;
   * nothing when the channel is gone, no longer broken, or broken again since.
   */
  async markNoticeQueued(name: string, since: number, at: number): Promise<void> {
    await this.updateIfStill('channels.markNoticeQueued', {
      Key: { scope: SCOPE, name },
      UpdateExpression: 'SET #state.#notice.#queuedAt = :at',
      ConditionExpression: '#state.#kind = :broken AND #state.#since = :since AND attribute_exists(#state.#notice)',
      ExpressionAttributeNames: { '#state': 'state', '#kind': 'kind', '#since': 'since', '#notice': 'notice', '#queuedAt': 'queuedAt' },
      ExpressionAttributeValues: { ':broken': 'broken', ':since': since, ':at': at },
    });
  }

  /** Records the last delivery attempt. */
  async recordDelivery(name: string, last: LastDelivery): Promise<void> {
    await this.updateExisting('channels.recordDelivery', name, 'SET lastDelivery = :last', { ':last': last });
  }

  /** Replaces a Telegram chat id (the group became a supergroup: `migrate_to_chat_id`). */
  async setChatId(name: string, chatId: string): Promise<void> {
    await this.updateExisting('channels.setChatId', name, 'SET chatId = :chatId', { ':chatId': chatId });
  }

  private async updateExisting(operation: string, name: string, update: string, values: Record<string, unknown>): Promise<void> {
    await this.conditionalUpdate(
      operation,
      {
        Key: { scope: SCOPE, name },
        UpdateExpression: update,
        ConditionExpression: 'attribute_exists(#name)',
        ExpressionAttributeNames: { '#name': 'name', ...(update.includes('#state') ? { '#state': 'state' } : {}) },
        ExpressionAttributeValues: values,
      },
      undefined,
      () => undefined,
    );
  }

  private parse(item: Record<string, unknown>, operation: string): ChannelRecord {
    const { scope: _scope, ...rest } = item;
    return parseItem(channelRecordSchema, rest, operation);
  }
}
