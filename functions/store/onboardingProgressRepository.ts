import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { DynamoRepository } from './dynamoRepository';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';
import { isLive, toTtlSeconds } from './ttl';

/** Kept as long as the batch's delivery records (90 days by default): long after any check of the batch can still arrive. */
const RETENTION_MS = 90 * 86_400_000;
const KIND = 'onboarding-progress';

const progressSchema = z.object({
  eventId: z.string().min(1),
  kind: z.literal(KIND),
  batch: z.number().int(),
  through: z.string().min(1).optional(),
  claimedBy: z.string().min(1).optional(),
  expiresAt: z.number(),
});

/** How far the checks of an onboarding batch got. */
export interface OnboardingProgress {
  /** Every member up to this address (in address order) had its first poll; `null`: none known yet. */
  readonly through: string | null;
  /** The check (its event id) that found the batch settled and announces it; `null`: none yet. */
  readonly claimedBy: string | null;
}

const progressId = (batch: number) => `${KIND}:${batch}`;

/**
 * The progress of an onboarding batch's checks (one item in `deliveries`,
 * `onboarding-progress:<createdAt>`, kept 90 days): how far the members' first polls are known to
 * have ended, so each check walks on from there instead of from the first member, and which check
 * claimed the settled batch, so exactly one reads the whole batch and announces it.
 */
export class OnboardingProgressRepository extends DynamoRepository<RepositoryOptions & { readonly retentionMs?: number }> {
  private readonly retentionMs: number;

  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions & { readonly retentionMs?: number } = {}) {
    super(client, prefix, 'deliveries', options);
    this.retentionMs = options.retentionMs ?? RETENTION_MS;
  }

  /** The batch's progress, read consistently (none yet: nothing passed, no claim). */
  async get(batch: number): Promise<OnboardingProgress> {
    const out = await this.call('onboardingProgress.get', () =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { eventId: progressId(batch) }, ConsistentRead: true })),
    );
    const item = out.Item ? parseItem(progressSchema, out.Item, 'onboardingProgress.get') : null;
    if (!item || !isLive(item.expiresAt, this.now())) return { through: null, claimedBy: null };
    return { through: item.through ?? null, claimedBy: item.claimedBy ?? null };
  }

  /** Records that every member up to `through` had its first poll; never moves back (a concurrent check that got further wins). */
  async advance(batch: number, through: string): Promise<void> {
    await this.stamp('onboardingProgress.advance', batch, 'through', through, '<', undefined, () => undefined);
  }

  /**
   * Claims the settled batch for the check `eventId`: `claimed` when no other check holds it (the
   * same check redelivered keeps it), else `taken`.
   */
  claim(batch: number, eventId: string): Promise<'claimed' | 'taken'> {
    return this.stamp('onboardingProgress.claim', batch, 'claimedBy', eventId, '=', 'claimed', () => 'taken');
  }

  /** Sets `field` to `value` on the batch's item when it is unset or compares to `value` as `op` says. */
  private stamp<const A, const B>(
    operation: string,
    batch: number,
    field: 'through' | 'claimedBy',
    value: string,
    op: '<' | '=',
    applied: A,
    refused: () => B,
  ): Promise<A | B> {
    return this.conditionalUpdate(
      operation,
      {
        Key: { eventId: progressId(batch) },
        UpdateExpression: 'SET #kind = :kind, #batch = :batch, #field = :value, #expiresAt = :expiresAt',
        ConditionExpression: `attribute_not_exists(#field) OR #field ${op} :value`,
        ExpressionAttributeNames: { '#kind': 'kind', '#batch': 'batch', '#field': field, '#expiresAt': 'expiresAt' },
        ExpressionAttributeValues: { ':kind': KIND, ':batch': batch, ':value': value, ':expiresAt': this.expiresAt() },
      },
      applied,
      refused,
    );
  }

  /**
   * Gives up the claim of `eventId` and forgets how far the walk got: the claimant found a member
   * still waiting after all (one added to the batch again after the walk passed it), so a later
   * check walks the batch anew.
   */
  async release(batch: number, eventId: string): Promise<void> {
    await this.updateIfStill('onboardingProgress.release', {
      Key: { eventId: progressId(batch) },
      UpdateExpression: 'REMOVE #claimedBy, #through',
      ConditionExpression: '#claimedBy = :claimant',
      ExpressionAttributeNames: { '#claimedBy': 'claimedBy', '#through': 'through' },
      ExpressionAttributeValues: { ':claimant': eventId },
    });
  }

  private expiresAt(): number {
    return toTtlSeconds(this.now() + this.retentionMs);
  }
}
