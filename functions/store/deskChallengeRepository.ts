import * as z from 'zod';
import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoRepository } from './dynamoRepository';
import { isConditionalCheckFailed } from './errors';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';
import { isLive, toTtlSeconds } from './ttl';

/** Key prefix of passkey challenges in the `desk` table. */
export const DESK_CHALLENGE_PREFIX = 'challenge#';

/** A WebAuthn challenge the desk issued: to register a passkey for `email`, or to sign in with any passkey. */
export type DeskChallenge =
  | { readonly purpose: 'register'; readonly challenge: string; readonly email: string; readonly expiresAt: number }
  | { readonly purpose: 'authenticate'; readonly challenge: string; readonly expiresAt: number };

const itemSchema = z.discriminatedUnion('purpose', [
  z.object({ id: z.string(), purpose: z.literal('register'), challenge: z.string().min(16), email: z.email(), expiresAt: z.number().int() }),
  z.object({ id: z.string(), purpose: z.literal('authenticate'), challenge: z.string().min(16), expiresAt: z.number().int() }),
]);

/**
 * Passkey challenges (table `desk`, key `challenge#<id>`): each is used once, whatever its answer
 * (`take` deletes it and returns it), and expires with its TTL.
 */
export class DeskChallengeRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'desk', options);
  }

  /** Stores `challenge` under `id` (a random id: a taken one is a `StoreError`). */
  async put(id: string, challenge: DeskChallenge): Promise<void> {
    const item = parseItem(itemSchema, { id: DESK_CHALLENGE_PREFIX + id, ...challenge, expiresAt: toTtlSeconds(challenge.expiresAt) }, 'deskChallenges.put');
    await this.call('deskChallenges.put', () =>
      this.client.send(new PutCommand({ TableName: this.table, Item: item, ConditionExpression: 'attribute_not_exists(id)' })),
    );
  }

  /** Removes and returns the challenge stored under `id`; `null` when there is none (used, never issued) or it has expired. */
  async take(id: string): Promise<DeskChallenge | null> {
    const out = await this.call('deskChallenges.take', async () => {
      try {
        return await this.client.send(
          new DeleteCommand({
            TableName: this.table,
            Key: { id: DESK_CHALLENGE_PREFIX + id },
            ConditionExpression: 'attribute_exists(id)',
            ReturnValues: 'ALL_OLD',
          }),
        );
      } catch (error) {
        if (isConditionalCheckFailed(error)) return null;
        throw error;
      }
    });
    if (!out?.Attributes) return null;
    const item = parseItem(itemSchema, out.Attributes, 'deskChallenges.take');
    if (!isLive(item.expiresAt, this.now())) return null;
    const { id: _id, ...challenge } = item;
    return { ...challenge, expiresAt: item.expiresAt * 1000 };
  }
}
