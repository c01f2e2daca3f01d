import { type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { toTtlSeconds } from './ttl';
import { DynamoRepository } from './dynamoRepository';
import type { RepositoryOptions } from './repositoryOptions';

/**
 * Short leases (table `leases`, key `lockId`) that serialize work, e.g. revocations of one
 * account, which must use consecutive nonces. A lease past its time can be taken over.
 */
export class LeaseRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'leases', options);
  }

  /**
   * Takes the lease for `ttlMs` from `now` if it is free, expired, or already held by `owner`
   * (which renews it).
   */
  async acquire(lockId: string, owner: string, ttlMs: number, now: number): Promise<{ kind: 'acquired' } | { kind: 'busy' }> {
    return this.conditionalPut(
      'leases.acquire',
      {
        Item: { lockId, owner, acquiredAt: now, leaseUntil: now + ttlMs, expiresAt: toTtlSeconds(now + ttlMs) },
        ConditionExpression: 'attribute_not_exists(lockId) OR leaseUntil <= :now OR #owner = :owner',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':now': now, ':owner': owner },
      },
      { kind: 'acquired' },
      () => ({ kind: 'busy' }),
    );
  }

  /** Gives the lease back if `owner` still holds it. */
  async release(lockId: string, owner: string): Promise<{ kind: 'released' } | { kind: 'not-owner' }> {
    return this.conditionalDelete(
      'leases.release',
      {
        Key: { lockId },
        ConditionExpression: '#owner = :owner',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': owner },
      },
      { kind: 'released' },
      () => ({ kind: 'not-owner' }),
    );
  }
}
