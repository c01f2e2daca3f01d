import { createHash } from 'node:crypto';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoRepository } from './dynamoRepository';
import type { RepositoryOptions } from './repositoryOptions';
import { toTtlSeconds } from './ttl';

/** Key prefix of rate-limit counters in the `desk` table. */
export const DESK_RATE_PREFIX = 'rate#';

/**
 * Fixed-window counters of the desk's sign-in requests (table `desk`, key
 * `rate#<scope>#<hash of the subject>#<window start>`): one `UpdateItem ADD` per request, the item
 * expiring with its window. The subject (an email address, a client address) is stored only as a
 * hash.
 */
export class DeskRateRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'desk', options);
  }

  /** Counts one request of `subject` in `scope` in the current window of `windowMs`, and returns the window's count so far. */
  async hit(scope: string, subject: string, windowMs: number, now: number): Promise<number> {
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const hash = createHash('sha256').update(`${scope}\n${subject}`).digest('base64url').slice(0, 22);
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
}
