import * as z from 'zod';
import { GetCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';
import { isConditionalCheckFailed, itemOfFailedCondition, StoreError } from './errors';
import { toTtlSeconds } from './ttl';
import { DynamoRepository } from './dynamoRepository';

/** What is about to be sent. */
export interface DeliveryIntent {
  /** e.g. `drawdown-alert`, `daily-report`. */
  readonly kind: string;
  readonly account: string;
  readonly recipients: readonly string[];
}

export type BeginOutcome =
  /**
   * Go ahead and send; call `complete` or `fail` afterwards. The claim holds until `leaseUntil`
   * (this repository's clock, `holds`): past it another attempt may take the delivery over.
   */
  | { kind: 'new'; leaseUntil: number }
  | { kind: 'already-sent'; sesMessageId: string }
  /** Another attempt holds the lease and has not finished yet; in `retryAfterMs` its lease runs out and it may be taken over. */
  | { kind: 'in-progress'; retryAfterMs: number };

const deliverySchema = z.object({
  eventId: z.string().min(1),
  kind: z.string().min(1),
  account: z.string().min(1),
  recipients: z.array(z.string()),
  status: z.enum(['in-progress', 'sent', 'failed']),
  startedAt: z.number(),
  attempts: z.number().int().min(1),
  sesMessageId: z.string().optional(),
  sentAt: z.number().optional(),
  failureReason: z.string().optional(),
  expiresAt: z.number(),
});

/** One delivery record as stored. */
export type Delivery = Omit<z.infer<typeof deliverySchema>, 'expiresAt'>;

export interface DeliveryRepositoryOptions extends RepositoryOptions {
  /** After this long an `in-progress` record is presumed abandoned and may be taken over; default 2 min. */
  readonly leaseMs?: number;
  /** How long records are kept (TTL); default 90 days. */
  readonly retentionMs?: number;
}

/**
 * Exactly-once delivery (table `deliveries`, key `eventId`): `begin` claims an event with a
 * conditional write before sending, `complete` records the SES message id.
 */
export class DeliveryRepository extends DynamoRepository<DeliveryRepositoryOptions> {
  private readonly leaseMs: number;
  private readonly retentionMs: number;

  constructor(client: DynamoDBDocumentClient, prefix: string, options: DeliveryRepositoryOptions = {}) {
    super(client, prefix, 'deliveries', options);
    this.leaseMs = options.leaseMs ?? 120_000;
    this.retentionMs = options.retentionMs ?? 90 * 86_400_000;
  }

  /**
   * Claims the event for sending. Succeeds when it was never claimed, when the last attempt
   * failed, or when an attempt has been `in-progress` longer than the lease.
   */
  async begin(eventId: string, intent: DeliveryIntent): Promise<BeginOutcome> {
    const now = this.now();
    return this.call('deliveries.begin', async () => {
      try {
        await this.client.send(
          new UpdateCommand({
            TableName: this.table,
            Key: { eventId },
            UpdateExpression:
              'SET #kind = :kind, account = :account, recipients = :recipients, #status = :inProgress, startedAt = :now, expiresAt = :expiresAt ADD attempts :one',
            ConditionExpression: 'attribute_not_exists(eventId) OR #status = :failed OR (#status = :inProgress AND startedAt <= :staleBefore)',
            ExpressionAttributeNames: { '#kind': 'kind', '#status': 'status' },
            ExpressionAttributeValues: {
              ':kind': intent.kind,
              ':account': intent.account,
              ':recipients': [...intent.recipients],
              ':inProgress': 'in-progress',
              ':failed': 'failed',
              ':now': now,
              ':staleBefore': now - this.leaseMs,
              ':expiresAt': toTtlSeconds(now + this.retentionMs),
              ':one': 1,
            },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return { kind: 'new', leaseUntil: now + this.leaseMs };
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        const stored = itemOfFailedCondition(error);
        if (stored?.['status'] === 'sent') return { kind: 'already-sent', sesMessageId: String(stored['sesMessageId'] ?? '') };
        const startedAt = typeof stored?.['startedAt'] === 'number' ? stored['startedAt'] : now;
        return { kind: 'in-progress', retryAfterMs: Math.max(0, startedAt + this.leaseMs - now) };
      }
    });
  }

  /**
   * Whether a claim `begin` gave still holds: false once its lease ran out (a stalled attempt),
   * when another attempt may have taken the delivery over and sent it. No read: the lease's clock.
   */
  holds(claim: { readonly leaseUntil: number }): boolean {
    return this.now() < claim.leaseUntil;
  }

  /** Records the event as sent with its SES message id. */
  async complete(eventId: string, sesMessageId: string): Promise<void> {
    await this.finish('deliveries.complete', eventId, 'SET #status = :sent, sesMessageId = :id, sentAt = :now REMOVE failureReason', {
      ':sent': 'sent',
      ':id': sesMessageId,
      ':now': this.now(),
    });
  }

  /** Records the attempt as failed, so that a later `begin` may try again. */
  async fail(eventId: string, reason: string): Promise<void> {
    await this.finish('deliveries.fail', eventId, 'SET #status = :failed, failureReason = :reason', {
      ':failed': 'failed',
      ':reason': reason.slice(0, 1_000),
    });
  }

  /** The delivery record, or null. */
  async get(eventId: string): Promise<Delivery | null> {
    const out = await this.call('deliveries.get', () => this.client.send(new GetCommand({ TableName: this.table, Key: { eventId }, ConsistentRead: true })));
    if (!out.Item) return null;
    const { expiresAt: _expiresAt, ...delivery } = parseItem(deliverySchema, out.Item, 'deliveries.get');
    return delivery;
  }

  /**
   * Every delivery begun at or after `fromMs`, oldest first. The table has no index on time (its
   * key is the event id), so this is a paginated Scan of the whole table with a filter: for the
   * operator's CLI, not for a Lambda; it reads every item kept (90 days) once per call.
   */
  async begunSince(fromMs: number): Promise<Delivery[]> {
    const found: Delivery[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const out = await this.call('deliveries.begunSince', () =>
        this.client.send(
          new ScanCommand({
            TableName: this.table,
            FilterExpression: 'startedAt >= :from AND attribute_exists(#status)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':from': fromMs },
            ...(startKey ? { ExclusiveStartKey: startKey } : {}),
          }),
        ),
      );
      for (const item of out.Items ?? []) {
        const { expiresAt: _expiresAt, ...delivery } = parseItem(deliverySchema, item, 'deliveries.begunSince');
        found.push(delivery);
      }
      startKey = out.LastEvaluatedKey;
    } while (startKey);
    return found.sort((a, b) => a.startedAt - b.startedAt);
  }

  private async finish(operation: string, eventId: string, update: string, values: Record<string, unknown>): Promise<void> {
    await this.call(operation, async () => {
      try {
        await this.client.send(
          new UpdateCommand({
            TableName: this.table,
            Key: { eventId },
            UpdateExpression: update,
            ConditionExpression: 'attribute_exists(eventId)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: values,
          }),
        );
      } catch (error) {
        if (isConditionalCheckFailed(error)) throw new StoreError(operation, `no delivery ${eventId} was begun`, { cause: error });
        throw error;
      }
    });
  }
}
