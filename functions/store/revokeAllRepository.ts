import * as z from 'zod';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { revokeAllUnitSchema, unitSubmittable, type RevokeAllUnit } from '../domain/revokeAllUnit';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';
import { toTtlSeconds } from './ttl';
import { DynamoRepository } from './dynamoRepository';

/** Key prefix of revoke-all batches in the `tokens` table (IAM scopes roles by it, as `revoke#`). */
export const REVOKE_ALL_KEY_PREFIX = 'revoke-all#';

/** A revoke-all link's batch: which delegates were submitted and where each stands. */
export interface RevokeAllBatch {
  readonly tokenId: string;
  readonly account: string;
  /** The link's expiry, epoch ms (to the second). */
  readonly expiresAt: number;
  /** By delegate address (checksummed). */
  readonly units: Readonly<Record<string, RevokeAllUnit>>;
}

const itemSchema = z.object({
  tokenId: z.string().min(1),
  account: z.string().min(1),
  expiresAt: z.number().int().min(0),
  units: z.record(z.string(), revokeAllUnitSchema),
});

/**
 * Revoke-all batches (table `tokens`, key `revoke-all#<token id>`, expiring with the link). Each
 * delegate is a unit changed only by conditional writes: submitted once unless its last attempt
 * sent nothing and may be retried, and finished only by the attempt that was queued.
 */
export class RevokeAllRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'tokens', options);
  }

  /** The batch of `tokenId` (strongly consistent); `null` when nothing was submitted or the link expired. */
  async get(tokenId: string): Promise<RevokeAllBatch | null> {
    const item = await this.getLiveItem('revokeAll.get', { tokenId: REVOKE_ALL_KEY_PREFIX + tokenId }, itemSchema);
    if (!item) return null;
    return { tokenId, account: item.account, expiresAt: item.expiresAt * 1000, units: item.units };
  }

  /**
   * Marks `delegate` queued for the next attempt, unless it may not be submitted (already queued,
   * sent, gone or unknown: see `unitSubmittable`); says which attempt to queue, or where it stands.
   */
  async submit(
    tokenId: string,
    batch: { account: string; expiresAt: number },
    delegate: string,
  ): Promise<{ kind: 'queued'; attempt: number } | { kind: 'not-submittable'; unit: RevokeAllUnit | undefined }> {
    const key = { tokenId: REVOKE_ALL_KEY_PREFIX + tokenId };
    await this.call('revokeAll.open', () =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key,
          UpdateExpression: 'SET account = if_not_exists(account, :a), expiresAt = if_not_exists(expiresAt, :e), units = if_not_exists(units, :none)',
          ExpressionAttributeValues: { ':a': batch.account, ':e': toTtlSeconds(batch.expiresAt), ':none': {} },
        }),
      ),
    );
    const current = (await this.get(tokenId))?.units[delegate];
    if (!unitSubmittable(current)) return { kind: 'not-submittable', unit: current };
    const attempt = (current?.attempt ?? 0) + 1;
    const unit: RevokeAllUnit = { state: 'queued', attempt, at: this.now() };
    const written = await this.conditionalUpdate(
      'revokeAll.submit',
      {
        Key: key,
        UpdateExpression: 'SET units.#d = :unit',
        ConditionExpression: current === undefined ? 'attribute_not_exists(units.#d)' : 'units.#d.attempt = :previous AND units.#d.#state = :done',
        ExpressionAttributeNames: { '#d': delegate, ...(current === undefined ? {} : { '#state': 'state' }) },
        ExpressionAttributeValues: { ':unit': unit, ...(current === undefined ? {} : { ':previous': current.attempt, ':done': 'done' }) },
      },
      'queued' as const,
      () => 'taken' as const,
    );
    if (written === 'queued') return { kind: 'queued', attempt };
    return { kind: 'not-submittable', unit: (await this.get(tokenId))?.units[delegate] };
  }

  /** Records how attempt `attempt` of `delegate` ended; `stale` if that attempt is no longer the queued one. */
  async finish(tokenId: string, delegate: string, unit: Exclude<RevokeAllUnit, { state: 'queued' }>): Promise<{ kind: 'recorded' } | { kind: 'stale' }> {
    const written = await this.conditionalUpdate(
      'revokeAll.finish',
      {
        Key: { tokenId: REVOKE_ALL_KEY_PREFIX + tokenId },
        UpdateExpression: 'SET units.#d = :unit',
        ConditionExpression: 'units.#d.attempt = :attempt AND units.#d.#state = :queued',
        ExpressionAttributeNames: { '#d': delegate, '#state': 'state' },
        ExpressionAttributeValues: { ':unit': parseItem(revokeAllUnitSchema, unit, 'revokeAll.finish'), ':attempt': unit.attempt, ':queued': 'queued' },
      },
      'recorded' as const,
      () => 'stale' as const,
    );
    return { kind: written };
  }
}
