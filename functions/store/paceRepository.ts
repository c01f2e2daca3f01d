import { createHash } from 'node:crypto';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { DynamoRepository } from './dynamoRepository';
import { isConditionalCheckFailed, itemOfFailedCondition } from './errors';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';

/** The partition of every pacing item in `channels` (the channel worker's grant names it). */
export const PACE_SCOPE_PREFIX = 'pace#';
const SLOT = 'slot';

const paceSchema = z.object({
  lastGrantAt: z.number().optional(),
  nextAt: z.number().optional(),
  blockedUntil: z.number().optional(),
});
type PaceItem = z.infer<typeof paceSchema>;

/** A send's turn at a destination: granted, or how long until it may be. */
export type SlotGrant = { kind: 'go' } | { kind: 'wait'; ms: number };

/** How many times `reserve` retries when another instance moved the slot under it. */
const RESERVE_TRIES = 5;

/**
 * Send slots of each destination shared by every channel-worker instance (table `channels`,
 * partition `pace#<hash of the destination>`, one item: the last grant, the next free slot and
 * an announced wait), changed only by conditional updates, so two instances never both take one
 * slot. Times are the callers' wall clock (ms).
 */
export class PaceRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'channels', options);
  }

  /** The item's partition for `destination` (a hash: the destination's references stay out of the key). */
  static scopeOf(destination: string): string {
    return `${PACE_SCOPE_PREFIX}${createHash('sha256').update(destination).digest('base64url').slice(0, 22)}`;
  }

  /**
   * Grants a send now when the last grant is at least `spacingMs` old and no announced wait
   * runs; unless `reserved` (the send holds a slot from `reserve`, or is urgent), also when no
   * reserved slot is pending (the next free slot is due). A grant moves the next free slot on.
   */
  grant(destination: string, now: number, spacingMs: number, reserved: boolean): Promise<SlotGrant> {
    const conditions = ['(attribute_not_exists(lastGrantAt) OR lastGrantAt <= :since)', '(attribute_not_exists(blockedUntil) OR blockedUntil <= :now)'];
    if (!reserved) conditions.push('(attribute_not_exists(nextAt) OR nextAt <= :now)');
    return this.conditionalUpdate(
      'pace.grant',
      {
        Key: this.key(destination),
        UpdateExpression: reserved ? 'SET lastGrantAt = :now' : 'SET lastGrantAt = :now, nextAt = :next',
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeValues: { ':now': now, ':since': now - spacingMs, ...(reserved ? {} : { ':next': now + spacingMs }) },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
      { kind: 'go' } as const,
      (error) => {
        const item = this.parse(itemOfFailedCondition(error));
        const ready = Math.max((item.lastGrantAt ?? -Infinity) + spacingMs, item.blockedUntil ?? 0, reserved ? 0 : (item.nextAt ?? 0));
        return { kind: 'wait', ms: Math.max(1, ready - now) } as const;
      },
    );
  }

  /**
   * Reserves the destination's next free slot for a send that must wait; returns how long until
   * it (0: free now). Each reservation moves the slot on by `spacingMs`, so waiting sends of every
   * instance are spread over their own slots.
   */
  async reserve(destination: string, now: number, spacingMs: number): Promise<number> {
    for (let i = 0; i < RESERVE_TRIES; i++) {
      const free = await this.conditionalUpdate(
        'pace.reserve',
        {
          Key: this.key(destination),
          UpdateExpression: 'SET nextAt = :next',
          ConditionExpression: 'attribute_not_exists(nextAt) OR nextAt <= :now',
          ExpressionAttributeValues: { ':now': now, ':next': now + spacingMs },
        },
        true as const,
        () => false as const,
      );
      if (free) return 0;
      const taken = await this.call('pace.reserve', async () => {
        try {
          const out = await this.client.send(
            new UpdateCommand({
              TableName: this.table,
              Key: this.key(destination),
              UpdateExpression: 'SET nextAt = nextAt + :spacing',
              ConditionExpression: 'nextAt > :now',
              ExpressionAttributeValues: { ':now': now, ':spacing': spacingMs },
              ReturnValues: 'UPDATED_OLD',
            }),
          );
          return this.parse(out.Attributes).nextAt ?? now;
        } catch (error) {
          if (isConditionalCheckFailed(error)) return null;
          throw error;
        }
      });
      if (taken !== null) return Math.max(0, taken - now);
    }
    // Every try raced another instance: come back after one spacing and try again then.
    return spacingMs;
  }

  /** Holds every instance's sends to the destination until `until` (an announced 429 wait); later slots stay later. */
  async block(destination: string, until: number): Promise<void> {
    const notLonger = '(attribute_not_exists(blockedUntil) OR blockedUntil < :until)';
    const moved = await this.conditionalUpdate(
      'pace.block',
      {
        Key: this.key(destination),
        UpdateExpression: 'SET blockedUntil = :until, nextAt = :until',
        ConditionExpression: `(attribute_not_exists(nextAt) OR nextAt < :until) AND ${notLonger}`,
        ExpressionAttributeValues: { ':until': until },
      },
      true as const,
      () => false as const,
    );
    if (moved) return;
    await this.updateIfStill('pace.block', {
      Key: this.key(destination),
      UpdateExpression: 'SET blockedUntil = :until',
      ConditionExpression: notLonger,
      ExpressionAttributeValues: { ':until': until },
    });
  }

  private key(destination: string): { scope: string; name: string } {
    return { scope: PaceRepository.scopeOf(destination), name: SLOT };
  }

  private parse(item: Record<string, unknown> | undefined): PaceItem {
    if (!item) return {};
    const { scope: _scope, name: _name, ...rest } = item;
    return parseItem(paceSchema, rest, 'pace.read');
  }
}
