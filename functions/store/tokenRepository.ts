import * as z from 'zod';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';
import { isConditionalCheckFailed, itemOfFailedCondition } from './storeError';
import { isLive, toTtlSeconds } from './ttl';
import { DynamoRepository } from './dynamoRepository';

/** What a consumed token was for. */
export interface TokenUse {
  readonly purpose: string;
  readonly account: string;
  /** The delegate a `revoke` token is for (required for that purpose). */
  readonly delegate?: string;
  /** The token's own expiry, epoch ms; the record expires with it (TTL). */
  readonly expiresAt: number;
}

/** A consumed token as stored. */
export interface ConsumedToken {
  readonly tokenId: string;
  readonly purpose: string;
  readonly account: string;
  /** `null` when the token names no delegate (purposes other than `revoke`, older records). */
  readonly delegate: string | null;
  readonly consumedAt: number;
  /** The token's expiry, epoch ms, to the second (rounded up). */
  readonly expiresAt: number;
  /** When the signing side used it (see {@link TokenRepository.markSigned}); `null` before. */
  readonly signedAt: number | null;
}

const useSchema = z
  .object({
    purpose: z.string().min(1),
    account: z.string().min(1),
    delegate: z.string().min(1).optional(),
    expiresAt: z.number().int().min(0),
  })
  .refine((use) => use.purpose !== 'revoke' || use.delegate !== undefined, { message: 'a revoke token names its delegate', path: ['delegate'] });

const itemSchema = z.object({
  tokenId: z.string().min(1),
  purpose: z.string().min(1),
  account: z.string().min(1),
  delegate: z.string().min(1).optional(),
  consumedAt: z.number().int().min(0),
  /** TTL, epoch seconds. */
  expiresAt: z.number().int().min(0),
  signedAt: z.number().int().min(0).optional(),
});

/** Single-use link tokens (table `tokens`, key `tokenId`): consuming is one conditional write. */
export class TokenRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'tokens', options);
  }

  /** Marks the token used, unless it already was (then says when). */
  async consume(tokenId: string, use: TokenUse): Promise<{ kind: 'consumed' } | { kind: 'already-used'; consumedAt: number }> {
    const valid = parseItem(useSchema, use, 'tokens.consume');
    return this.call('tokens.consume', async () => {
      try {
        await this.client.send(
          new PutCommand({
            TableName: this.table,
            Item: {
              tokenId,
              purpose: valid.purpose,
              account: valid.account,
              ...(valid.delegate === undefined ? {} : { delegate: valid.delegate }),
              consumedAt: this.now(),
              expiresAt: toTtlSeconds(valid.expiresAt),
            },
            ConditionExpression: 'attribute_not_exists(tokenId)',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return { kind: 'consumed' };
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        return { kind: 'already-used', consumedAt: Number(itemOfFailedCondition(error)?.['consumedAt'] ?? 0) };
      }
    });
  }

  /** The consumed token (strongly consistent read); `null` if it was never consumed, was released, or has expired. */
  async get(tokenId: string): Promise<ConsumedToken | null> {
    const out = await this.call('tokens.get', () => this.client.send(new GetCommand({ TableName: this.table, Key: { tokenId }, ConsistentRead: true })));
    if (!out.Item) return null;
    const item = parseItem(itemSchema, out.Item, 'tokens.get');
    if (!isLive(item.expiresAt, this.now())) return null;
    return {
      tokenId: item.tokenId,
      purpose: item.purpose,
      account: item.account,
      delegate: item.delegate ?? null,
      consumedAt: item.consumedAt,
      expiresAt: item.expiresAt * 1000,
      signedAt: item.signedAt ?? null,
    };
  }

  /**
   * Records that the signing side used the token consumed at `consumedAt`, once: a second call,
   * or a call for a record that was released (or released and consumed again since), changes
   * nothing and says so. Releasing the token deletes the mark with the record.
   */
  async markSigned(tokenId: string, consumedAt: number): Promise<{ kind: 'marked' } | { kind: 'already-signed'; signedAt: number } | { kind: 'not-consumed' }> {
    return this.call('tokens.markSigned', async () => {
      try {
        await this.client.send(
          new UpdateCommand({
            TableName: this.table,
            Key: { tokenId },
            UpdateExpression: 'SET signedAt = :now',
            ConditionExpression: 'attribute_exists(tokenId) AND consumedAt = :consumedAt AND attribute_not_exists(signedAt)',
            ExpressionAttributeValues: { ':now': this.now(), ':consumedAt': consumedAt },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return { kind: 'marked' };
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        const found = itemOfFailedCondition(error);
        const signedAt = found?.['signedAt'];
        if (found?.['consumedAt'] === consumedAt && typeof signedAt === 'number') return { kind: 'already-signed', signedAt };
        return { kind: 'not-consumed' };
      }
    });
  }

  /** Makes a consumed token usable again (when nothing was sent to the chain); the next consume starts afresh. */
  async release(tokenId: string): Promise<void> {
    await this.call('tokens.release', () => this.client.send(new DeleteCommand({ TableName: this.table, Key: { tokenId } })));
  }
}
