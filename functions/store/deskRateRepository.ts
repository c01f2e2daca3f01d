import { createHash } from 'node:crypto';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoRepository } from './dynamoRepository';
import { itemOfFailedCondition } from './errors';
import type { RepositoryOptions } from './repositoryOptions';
import { toTtlSeconds } from './ttl';

/** Key prefix of rate-limit counters in the `desk` table. */
export const DESK_RATE_PREFIX = 'rate#';

/** What claiming a turn came to: `claimed`, or `wait` with the milliseconds until the next turn. */
export type IntervalClaim = { kind: 'claimed' } | { kind: 'wait'; ms: number };

/**
 * The desk's rate limits (table `desk`): fixed-window counters of sign-in requests (key
 * `rate#<scope>#<hash of the subject>#<window start>`, one `UpdateItem ADD` per request, the item
 * expiring with its window) and turns at most one per interval (key `rate#<scope>#<hash>#last`,
 * one conditional write). The subject (an email address, a client address) is stored only as a
 * hash.
 */
export class DeskRateRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'desk', options);
  }

  /** Counts one request of `subject` in `scope` in the current window of `windowMs`, and returns the window's count so far. */
  async hit(scope: string, subject: string, windowMs: number, now: number): Promise<number> {
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const hash = subjectHash(scope, subject);
    const out = await this.call('deskRates.hit', () =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { id: `${DESK_RATE_PREFIX}${scope}#${hash}#${windowStart}` },
          UpdateExpression: 'ADD hits :one SET expiresAt = :expiresAt',
          ExpressionAttributeValues: { ':one': 1, ':expiresAt': toTtlSeconds(windowStart + windowMs) },
          ReturnValues: 'UPDATED_NEW',
        }),
      ),
    );
    return Number(out.Attributes?.['hits'] ?? 1);
  }

  /**
   * Claims `subject`'s turn in `scope` at `now` if its last claimed turn is at least `intervalMs`
   * old (a sliding interval: two turns are never closer, whatever the clock's minute): `wait`
   * names how long until the next turn. Concurrent claims: one wins.
   */
  async claimTurn(scope: string, subject: string, intervalMs: number, now: number): Promise<IntervalClaim> {
    return this.conditionalPut(
      'deskRates.claimTurn',
      {
        Item: { id: `${DESK_RATE_PREFIX}${scope}#${subjectHash(scope, subject)}#last`, lastAt: now, expiresAt: toTtlSeconds(now + intervalMs) },
        ConditionExpression: 'attribute_not_exists(id) OR lastAt <= :cutoff',
        ExpressionAttributeValues: { ':cutoff': now - intervalMs },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
      { kind: 'claimed' } as const,
      (error) => {
        const lastAt = Number(itemOfFailedCondition(error)?.['lastAt'] ?? now);
        return { kind: 'wait', ms: Math.max(1, lastAt + intervalMs - now) } as const;
      },
    );
  }
}

function subjectHash(scope: string, subject: string): string {
  return createHash('sha256').update(`${scope}\n${subject}`).digest('base64url').slice(0, 22);
}
