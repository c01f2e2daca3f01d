import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { DynamoRepository } from './dynamoRepository';
import { itemOfFailedCondition } from './errors';
import type { RepositoryOptions } from './repositoryOptions';
import { toTtlSeconds } from './ttl';

/** Key prefix of used sign-in links in the `desk` table. */
export const DESK_SIGN_IN_PREFIX = 'sign-in#';

const usedSignIn = z.object({ usedAt: z.number(), expiresAt: z.number() });

/**
 * Used desk sign-in links (table `desk`, key `sign-in#<token id>`): the sign-in page's POST
 * consumes a link with one conditional write, so a link signs in once; its GET reads whether it
 * was, to say so before the button is pressed. The item expires with the link.
 */
export class DeskSignInRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'desk', options);
  }

  /** When the link `tokenId` was used; `null` while it is not (one consistent `GetItem`). */
  async usedAt(tokenId: string): Promise<number | null> {
    const item = await this.getLiveItem('deskSignIns.usedAt', { id: DESK_SIGN_IN_PREFIX + tokenId }, usedSignIn);
    return item?.usedAt ?? null;
  }

  /** Marks the link `tokenId` used, unless it already was (then says when). */
  async consume(tokenId: string, expiresAt: number): Promise<{ kind: 'consumed' } | { kind: 'already-used'; usedAt: number }> {
    return this.conditionalPut(
      'deskSignIns.consume',
      {
        Item: { id: DESK_SIGN_IN_PREFIX + tokenId, usedAt: this.now(), expiresAt: toTtlSeconds(expiresAt) },
        ConditionExpression: 'attribute_not_exists(id)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
      { kind: 'consumed' } as const,
      (error) => ({ kind: 'already-used', usedAt: Number(itemOfFailedCondition(error)?.['usedAt'] ?? 0) }) as const,
    );
  }
}
