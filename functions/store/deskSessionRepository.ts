import * as z from 'zod';
import { DeleteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sessionEndsAt, type DeskSession } from '../domain/deskSession';
import { DynamoRepository } from './dynamoRepository';
import { StoreError } from './errors';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';
import { toTtlSeconds } from './ttl';

/** Key prefix of desk sessions in the `desk` table. */
export const DESK_SESSION_PREFIX = 'session#';

const itemSchema = z.object({
  id: z.string().startsWith(DESK_SESSION_PREFIX),
  email: z.email(),
  createdAt: z.number().int().min(0),
  lastSeenAt: z.number().int().min(0),
  via: z.enum(['email-link', 'passkey']),
  expiresAt: z.number().int().min(0),
});

/**
 * Desk sessions (table `desk`, key `session#<key>`, where the key is a hash of the cookie's
 * secret: the table never holds a usable cookie). The TTL is the session's idle or absolute end,
 * moved with each recorded activity.
 */
export class DeskSessionRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'desk', options);
  }

  /** Stores a new session under `key` (a key already taken is a `StoreError`: keys are random). */
  async create(key: string, session: DeskSession): Promise<void> {
    const item = parseItem(itemSchema, { id: DESK_SESSION_PREFIX + key, ...session, expiresAt: toTtlSeconds(sessionEndsAt(session)) }, 'deskSessions.create');
    await this.conditionalPut('deskSessions.create', { Item: item, ConditionExpression: 'attribute_not_exists(id)' }, undefined, () => {
      throw new StoreError('deskSessions.create', 'the session key is already taken');
    });
  }

  /** The session stored under `key` (consistent read), or `null` when there is none or its item has expired. */
  async get(key: string): Promise<DeskSession | null> {
    const item = await this.getLiveItem('deskSessions.get', { id: DESK_SESSION_PREFIX + key }, itemSchema);
    if (!item) return null;
    return { email: item.email, createdAt: item.createdAt, lastSeenAt: item.lastSeenAt, via: item.via };
  }

  /** Records activity at `at` on a session that still exists (a session ended meanwhile stays ended). */
  async touch(key: string, session: DeskSession, at: number): Promise<void> {
    await this.updateIfStill('deskSessions.touch', {
      Key: { id: DESK_SESSION_PREFIX + key },
      UpdateExpression: 'SET lastSeenAt = :at, expiresAt = :expiresAt',
      ConditionExpression: 'attribute_exists(id) AND lastSeenAt < :at',
      ExpressionAttributeValues: { ':at': at, ':expiresAt': toTtlSeconds(sessionEndsAt({ ...session, lastSeenAt: at })) },
    });
  }

  /** Ends the session stored under `key` (nothing when there is none). */
  async end(key: string): Promise<void> {
    await this.call('deskSessions.end', () => this.client.send(new DeleteCommand({ TableName: this.table, Key: { id: DESK_SESSION_PREFIX + key } })));
  }
}
