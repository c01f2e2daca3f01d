import * as z from 'zod';
import { GetCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { normalEmail } from '../domain/deskScope';
import { batchGetAll } from './batchGet';
import { recipientKey } from './deskRecipientRepository';
import { DynamoRepository } from './dynamoRepository';
import { isConditionalCheckFailed } from './errors';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';

/** Key prefix of passkeys in the `desk` table. */
export const PASSKEY_PREFIX = 'passkey#';

/** A registered passkey: its WebAuthn credential (public key only) and whose it is. */
export interface Passkey {
  /** The credential id, base64url. */
  readonly id: string;
  readonly email: string;
  /** The credential's COSE public key, base64url. */
  readonly publicKey: string;
  /** The authenticator's signature counter as last seen (0 for authenticators that keep none). */
  readonly counter: number;
  readonly transports: readonly string[];
  /** What the recipient called it ("work phone"). */
  readonly name: string;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
}

const base64url = z.string().regex(/^[A-Za-z0-9_-]{1,1400}$/);
const itemSchema = z.object({
  id: z.string().startsWith(PASSKEY_PREFIX),
  email: z.email(),
  publicKey: base64url,
  counter: z.number().int().min(0),
  transports: z.array(z.string().max(20)).max(10),
  name: z.string().min(1).max(60),
  createdAt: z.number().int().min(0),
  lastUsedAt: z.number().int().min(0).nullable(),
});

function toPasskey(item: unknown, operation: string): Passkey {
  const { id, ...rest } = parseItem(itemSchema, item, operation);
  return { id: id.slice(PASSKEY_PREFIX.length), ...rest };
}

/**
 * Passkeys (table `desk`, key `passkey#<credential id>`, found by the id a sign-in answers with),
 * listed on the recipient's desk item (`passkeys` set) so its page can show them. Registering and
 * removing write both in one transaction.
 */
export class PasskeyRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'desk', options);
  }

  /** Stores a new passkey and lists it on its recipient's item; `exists` when that credential id is registered already. */
  async register(passkey: Passkey): Promise<{ kind: 'registered' } | { kind: 'exists' }> {
    const item = parseItem(itemSchema, { ...passkey, id: PASSKEY_PREFIX + passkey.id, email: normalEmail(passkey.email) }, 'passkeys.register');
    return this.call('passkeys.register', async () => {
      try {
        await this.client.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: this.table, Item: item, ConditionExpression: 'attribute_not_exists(id)' } },
              {
                Update: {
                  TableName: this.table,
                  Key: { id: recipientKey(item.email) },
                  UpdateExpression: 'ADD passkeys :id',
                  ExpressionAttributeValues: { ':id': new Set([passkey.id]) },
                },
              },
            ],
          }),
        );
        return { kind: 'registered' } as const;
      } catch (error) {
        if (error instanceof Error && error.name === 'TransactionCanceledException') return { kind: 'exists' } as const;
        throw error;
      }
    });
  }

  /** The passkey with credential id `id` (consistent read), or `null`. */
  async get(id: string): Promise<Passkey | null> {
    const out = await this.call('passkeys.get', () =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { id: PASSKEY_PREFIX + id }, ConsistentRead: true })),
    );
    return out.Item ? toPasskey(out.Item, 'passkeys.get') : null;
  }

  /** The passkeys of these ids that exist (one `BatchGetItem` per 100), oldest first. */
  async getMany(ids: readonly string[]): Promise<Passkey[]> {
    if (ids.length === 0) return [];
    const items = await batchGetAll(
      this.client,
      this.table,
      [...new Set(ids)].map((id) => ({ id: PASSKEY_PREFIX + id })),
      'passkeys.getMany',
    );
    return items.map((item) => toPasskey(item, 'passkeys.getMany')).sort((a, b) => a.createdAt - b.createdAt);
  }

  /**
   * Records a sign-in with the passkey: its new counter and when, only if the stored counter is
   * still `previous` (two sign-ins racing with one assertion: one wins). `replayed` otherwise.
   */
  async recordUse(id: string, previous: number, counter: number, at: number): Promise<{ kind: 'recorded' } | { kind: 'replayed' }> {
    return this.call('passkeys.recordUse', async () => {
      try {
        await this.client.send(
          new UpdateCommand({
            TableName: this.table,
            Key: { id: PASSKEY_PREFIX + id },
            UpdateExpression: 'SET #counter = :counter, lastUsedAt = :at',
            ConditionExpression: 'attribute_exists(id) AND #counter = :previous',
            ExpressionAttributeNames: { '#counter': 'counter' },
            ExpressionAttributeValues: { ':counter': counter, ':previous': previous, ':at': at },
          }),
        );
        return { kind: 'recorded' } as const;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return { kind: 'replayed' } as const;
        throw error;
      }
    });
  }

  /** Removes `email`'s passkey `id` (nothing when it is not theirs). */
  async remove(email: string, id: string): Promise<{ kind: 'removed' } | { kind: 'not-found' }> {
    const owner = normalEmail(email);
    return this.call('passkeys.remove', async () => {
      try {
        await this.client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Delete: {
                  TableName: this.table,
                  Key: { id: PASSKEY_PREFIX + id },
                  ConditionExpression: 'email = :email',
                  ExpressionAttributeValues: { ':email': owner },
                },
              },
              {
                Update: {
                  TableName: this.table,
                  Key: { id: recipientKey(owner) },
                  UpdateExpression: 'DELETE passkeys :id',
                  ExpressionAttributeValues: { ':id': new Set([id]) },
                },
              },
            ],
          }),
        );
        return { kind: 'removed' } as const;
      } catch (error) {
        if (error instanceof Error && error.name === 'TransactionCanceledException') return { kind: 'not-found' } as const;
        throw error;
      }
    });
  }
}
