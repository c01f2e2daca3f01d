import * as z from 'zod';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseItem } from './parseItem';
import { queryAll } from './queryAll';
import { StoreError } from './storeError';
import { DynamoRepository } from './dynamoRepository';
import type { RepositoryOptions } from './repositoryOptions';

/** The rule name under which an account's snooze is stored (state `{ until: epoch ms }`). */
export const SNOOZE_RULE = 'snooze';

/** Where one rule of one account stands, with the version its next write must name. */
export interface AlertState {
  readonly rule: string;
  readonly state: Record<string, unknown>;
  readonly version: number;
}

const itemSchema = z.object({
  address: z.string(),
  rule: z.string().min(1),
  state: z.record(z.string(), z.unknown()),
  version: z.number().int().min(1),
});
const snoozeSchema = z.object({ until: z.number() });

/**
 * Alert state per account and rule (table `alerts`), written only with optimistic concurrency,
 * so two evaluations of the same account never both act on the same position.
 */
export class AlertStateRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'alerts', options);
  }

  /** One rule's state, or null if it was never written. */
  async get(address: string, rule: string): Promise<AlertState | null> {
    const out = await this.call('alerts.get', () =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { address, rule }, ConsistentRead: true })),
    );
    return out.Item ? toState(parseItem(itemSchema, out.Item, 'alerts.get')) : null;
  }

  /** Every rule's state for an account (the snooze included), by rule name. */
  async listForAccount(address: string): Promise<AlertState[]> {
    const states: AlertState[] = [];
    const items = queryAll(
      this.client,
      { TableName: this.table, KeyConditionExpression: 'address = :address', ExpressionAttributeValues: { ':address': address }, ConsistentRead: true },
      'alerts.listForAccount',
    );
    for await (const item of items) states.push(toState(parseItem(itemSchema, item, 'alerts.listForAccount')));
    return states;
  }

  /**
   * Writes `newState` if the stored version is still `expectedVersion` (`null`: if there is
   * none yet). On success the version becomes `expectedVersion + 1` (1 for a first write).
   */
  async compareAndSet(
    address: string,
    rule: string,
    expectedVersion: number | null,
    newState: Record<string, unknown>,
  ): Promise<{ kind: 'written'; version: number } | { kind: 'conflict' }> {
    const version = (expectedVersion ?? 0) + 1;
    const item = parseItem(itemSchema, { address, rule, state: newState, version }, 'alerts.compareAndSet');
    return this.conditionalWrite(
      'alerts.compareAndSet',
      () => this.client.send(
        new PutCommand({
          TableName: this.table,
          Item: item,
          ...(expectedVersion === null
            ? { ConditionExpression: 'attribute_not_exists(address)' }
            : {
                ConditionExpression: '#version = :expected',
                ExpressionAttributeNames: { '#version': 'version' },
                ExpressionAttributeValues: { ':expected': expectedVersion },
              }),
        }),
      ),
      { kind: 'written', version },
      () => ({ kind: 'conflict' }),
    );
  }

  /** Until when (epoch ms) the account is snoozed, or null. */
  async snoozedUntil(address: string): Promise<number | null> {
    const stored = await this.get(address, SNOOZE_RULE);
    if (!stored) return null;
    const parsed = snoozeSchema.safeParse(stored.state);
    return parsed.success ? parsed.data.until : null;
  }

  /** Silences the account's alerts until `until` (epoch ms), whatever was stored before. */
  async snooze(address: string, until: number): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const current = await this.get(address, SNOOZE_RULE);
      const outcome = await this.compareAndSet(address, SNOOZE_RULE, current?.version ?? null, { until });
      if (outcome.kind === 'written') return;
    }
    throw new StoreError('alerts.snooze', `snooze of ${address} kept conflicting with concurrent writes`);
  }
}

function toState(item: z.infer<typeof itemSchema>): AlertState {
  return { rule: item.rule, state: item.state, version: item.version };
}
