import * as z from 'zod';
import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';
import { isConditionalCheckFailed, itemOfFailedCondition, storeCall } from './storeError';
import { tableName } from './tableDefinitions';
import { toTtlSeconds } from './ttl';

/** What a consumed token was for. */
export interface TokenUse {
  readonly purpose: string;
  readonly account: string;
  /** The token's own expiry, epoch ms; the record expires with it (TTL). */
  readonly expiresAt: number;
}

const useSchema = z.object({ purpose: z.string().min(1), account: z.string().min(1), expiresAt: z.number().int().min(0) });

/** Single-use link tokens (table `tokens`, key `tokenId`): consuming is one conditional write. */
export class TokenRepository {
  private readonly table: string;
  private readonly now: () => number;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    prefix: string,
    options: RepositoryOptions = {},
  ) {
    this.table = tableName(prefix, 'tokens');
    this.now = options.now ?? Date.now;
  }

  /** Marks the token used, unless it already was (then says when). */
  async consume(tokenId: string, use: TokenUse): Promise<{ kind: 'consumed' } | { kind: 'already-used'; consumedAt: number }> {
    const valid = parseItem(useSchema, use, 'tokens.consume');
    return storeCall('tokens.consume', async () => {
      try {
        await this.client.send(
          new PutCommand({
            TableName: this.table,
            Item: { tokenId, purpose: valid.purpose, account: valid.account, consumedAt: this.now(), expiresAt: toTtlSeconds(valid.expiresAt) },
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

  /** Makes a consumed token usable again (when nothing was sent to the chain). */
  async release(tokenId: string): Promise<void> {
    await storeCall('tokens.release', () => this.client.send(new DeleteCommand({ TableName: this.table, Key: { tokenId } })));
  }
}
