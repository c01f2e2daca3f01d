import * as z from 'zod';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { revokeAllResultSchema, revokeAllUnitSchema, unitSubmittable, type RevokeAllResult, type RevokeAllUnit } from '../domain/revokeAllUnit';
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

/**
 * What `revoke-all-page` may name in a batch (IAM `dynamodb:Attributes`): it opens the batch and
 * queues each delegate's attempts in `units`; a unit's result is not among them.
 */
export const REVOKE_ALL_REQUEST_ATTRIBUTES = ['tokenId', 'account', 'expiresAt', 'units'] as const;
/** What `revoke-all-worker` may name in a batch: each delegate's result, in `results`. */
export const REVOKE_ALL_RESULT_ATTRIBUTES = ['tokenId', 'results'] as const;

const itemSchema = z.object({
  tokenId: z.string().min(1),
  account: z.string().min(1),
  expiresAt: z.number().int().min(0),
  /** The page's part: each delegate's latest attempt, queued (a result here is from before results were kept apart). */
  units: z.record(z.string(), revokeAllUnitSchema),
  /** The worker's part: each delegate's result, of the attempt it names. */
  results: z.record(z.string(), revokeAllResultSchema).optional(),
});

/** Said of a unit whose result was kept where the page could write it (a batch of a link used before the upgrade). */
const UNTRUSTED_RESULT = 'its result was recorded before results were kept apart from the page; check the keys the account lists';

/** Where a delegate stands: its latest attempt, finished when the worker recorded that attempt's result. */
function unitOf(request: RevokeAllUnit, result: RevokeAllResult | undefined): RevokeAllUnit {
  if (request.state !== 'queued') return { state: 'unknown', attempt: request.attempt, at: request.at, message: UNTRUSTED_RESULT };
  return result !== undefined && result.attempt === request.attempt ? result : request;
}

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
    const units = Object.fromEntries(Object.entries(item.units).map(([delegate, request]) => [delegate, unitOf(request, item.results?.[delegate])]));
    return { tokenId, account: item.account, expiresAt: item.expiresAt * 1000, units };
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
        // The previous attempt's result is final (the worker records one per attempt) and was read above:
        // only its attempt is checked, so the page names no result.
        ConditionExpression: current === undefined ? 'attribute_not_exists(units.#d)' : 'units.#d.attempt = :previous',
        ExpressionAttributeNames: { '#d': delegate },
        ExpressionAttributeValues: { ':unit': unit, ...(current === undefined ? {} : { ':previous': current.attempt }) },
      },
      'queued' as const,
      () => 'taken' as const,
    );
    if (written === 'queued') return { kind: 'queued', attempt };
    return { kind: 'not-submittable', unit: (await this.get(tokenId))?.units[delegate] };
  }

  /**
   * Records how attempt `attempt` of `delegate` ended, in the batch's `results` (never in `units`);
   * `stale` when a result of that attempt (or a later one) is already recorded or the batch is gone.
   */
  async finish(tokenId: string, delegate: string, unit: RevokeAllResult): Promise<{ kind: 'recorded' } | { kind: 'stale' }> {
    const key = { tokenId: REVOKE_ALL_KEY_PREFIX + tokenId };
    const opened = await this.conditionalUpdate(
      'revokeAll.openResults',
      {
        Key: key,
        UpdateExpression: 'SET results = if_not_exists(results, :none)',
        ConditionExpression: 'attribute_exists(tokenId)',
        ExpressionAttributeValues: { ':none': {} },
      },
      'open' as const,
      () => 'gone' as const,
    );
    if (opened === 'gone') return { kind: 'stale' };
    const written = await this.conditionalUpdate(
      'revokeAll.finish',
      {
        Key: key,
        UpdateExpression: 'SET results.#d = :unit',
        ConditionExpression: 'attribute_not_exists(results.#d) OR results.#d.attempt < :attempt',
        ExpressionAttributeNames: { '#d': delegate },
        ExpressionAttributeValues: { ':unit': parseItem(revokeAllResultSchema, unit, 'revokeAll.finish'), ':attempt': unit.attempt },
      },
      'recorded' as const,
      () => 'stale' as const,
    );
    return { kind: written };
  }
}
