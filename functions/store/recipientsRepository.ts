import * as z from 'zod';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type RecipientClock, recipientSettingsSchema, RECIPIENT_REPORT_MODES, WEEKDAYS, type RecipientSettings } from '../domain/recipientSchedule';
import { CLOCK_TIME } from '../domain/reportPlan';
import { batchGetAll } from './batchGet';
import { DynamoRepository } from './dynamoRepository';
import { mapConcurrent } from '../shared/concurrency';
import { parseItem } from './parseItem';
import { queryAll } from './queryAll';
import type { RepositoryOptions } from './repositoryOptions';
import { SHARDS, shardOf } from './shard';

/** A recipient record: its settings, the accounts that mail it, and its own schedule when it has one. */
export interface RecipientRecord extends RecipientSettings {
  /** Addresses of the accounts mailing this recipient (kept as accounts are added, changed, removed). */
  readonly accounts: readonly string[];
  /** The next instant its own schedule runs; `null` when it follows its accounts' schedules only. */
  readonly nextReportAt: number | null;
  /** The zone and time its own schedule runs at (`null` without one). */
  readonly clock: RecipientClock | null;
  readonly updatedAt: number;
}

/** What `save` writes: the settings, the accounts, and the schedule bookkeeping. */
export interface RecipientWrite {
  readonly settings: RecipientSettings;
  readonly accounts: readonly string[];
  readonly schedule: { readonly nextReportAt: number; readonly clock: RecipientClock } | null;
}

const itemSchema = z.object({
  email: z.string().min(1),
  mode: z.enum(RECIPIENT_REPORT_MODES),
  timezone: z.string().nullable(),
  reportAt: z.string().regex(CLOCK_TIME).nullable(),
  weekly: z.enum(WEEKDAYS).nullable(),
  monthly: z.number().int().min(1).max(28).nullable(),
  accounts: z.set(z.string()).optional(),
  nextReportAt: z.number().int().min(0).optional(),
  scheduleTimezone: z.string().optional(),
  scheduleReportAt: z.string().regex(CLOCK_TIME).optional(),
  updatedAt: z.number().int().min(0),
});

/**
 * Recipient records (items of table `preferences`, key `email` lower-cased, beside the
 * address's opt-outs): delivery mode, zone and report time overrides, weekly and monthly
 * summaries, the string set `accounts` of the accounts that mail it, and, for a recipient with a
 * schedule of its own, `nextReportAt` and `shard`, the keys of the sparse index `byNextReport`.
 * An address without `mode` has no record: it gets per-account reports on its accounts' schedules.
 */
export class RecipientsRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'preferences', options);
  }

  /** The record of `email` (read consistently), or null when it has none. */
  async get(email: string): Promise<RecipientRecord | null> {
    const out = await this.call('recipients.get', () =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { email: normalize(email) }, ConsistentRead: true })),
    );
    return out.Item && 'mode' in out.Item ? toRecord(out.Item, 'recipients.get') : null;
  }

  /** The records of those addresses that have one, by lower-cased email (one `BatchGetItem` per 100). */
  async getMany(emails: readonly string[]): Promise<Map<string, RecipientRecord>> {
    const keys = [...new Set(emails.map(normalize))].map((email) => ({ email }));
    if (keys.length === 0) return new Map();
    const items = await batchGetAll(this.client, this.table, keys, 'recipients.getMany', this.options.batch);
    return new Map(items.filter((item) => 'mode' in item).map((item) => [String(item['email']), toRecord(item, 'recipients.getMany')]));
  }

  /** Writes the record (settings checked first; the address's opt-outs are kept). */
  async save(write: RecipientWrite): Promise<RecipientRecord> {
    const operation = 'recipients.save';
    const settings = parseItem(recipientSettingsSchema, write.settings, operation);
    const accounts = [...new Set(write.accounts)];
    const sets: Record<string, unknown> = {
      mode: settings.mode,
      timezone: settings.timezone,
      reportAt: settings.reportAt,
      weekly: settings.weekly,
      monthly: settings.monthly,
      updatedAt: this.now(),
    };
    const removes: string[] = [];
    if (accounts.length > 0) sets['accounts'] = new Set(accounts);
    else removes.push('accounts');
    if (write.schedule) {
      Object.assign(sets, {
        nextReportAt: parseItem(z.number().int().min(0), write.schedule.nextReportAt, operation),
        shard: shardOf(settings.email),
        scheduleTimezone: write.schedule.clock.timezone,
        scheduleReportAt: write.schedule.clock.reportAt,
      });
    } else removes.push('nextReportAt', 'shard', 'scheduleTimezone', 'scheduleReportAt');
    const names = [...Object.keys(sets), ...removes];
    const out = await this.call(operation, () =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { email: settings.email },
          UpdateExpression: `SET ${Object.keys(sets)
            .map((name) => `#${name} = :${name}`)
            .join(', ')}${removes.length > 0 ? ` REMOVE ${removes.map((name) => `#${name}`).join(', ')}` : ''}`,
          ExpressionAttributeNames: Object.fromEntries(names.map((name) => [`#${name}`, name])),
          ExpressionAttributeValues: Object.fromEntries(Object.entries(sets).map(([name, value]) => [`:${name}`, value])),
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return toRecord(out.Attributes, operation);
  }

  /**
   * Keeps the `accounts` sets of the addresses that have a record when an account's recipients
   * change: adds `address` to those of `added`, removes it from those of `dropped`. Addresses
   * without a record are left without one.
   */
  async syncAccount(address: string, added: readonly string[], dropped: readonly string[]): Promise<void> {
    const changes = [
      ...[...new Set(added.map(normalize))].map((email) => ({ email, action: 'ADD' as const })),
      ...[...new Set(dropped.map(normalize))].map((email) => ({ email, action: 'DELETE' as const })),
    ];
    await mapConcurrent(changes, 8, ({ email, action }) =>
      this.conditionalUpdate(
        'recipients.syncAccount',
        {
          Key: { email },
          UpdateExpression: `${action} #accounts :address`,
          ConditionExpression: 'attribute_exists(#mode)',
          ExpressionAttributeNames: { '#accounts': 'accounts', '#mode': 'mode' },
          ExpressionAttributeValues: { ':address': new Set([address]) },
        },
        true,
        () => false,
      ),
    );
  }

  /**
   * Recipients whose own schedule is due (`nextReportAt <= now`, index `byNextReport`), earliest
   * first. The index holds the settings and schedule, not the account set: `accounts` is empty
   * here, and whoever sends re-reads the record with `get`.
   */
  async queryDue(now: number): Promise<RecipientRecord[]> {
    const operation = 'recipients.queryDue';
    const perShard = await Promise.all(
      SHARDS.map(async (shard) => {
        const found: RecipientRecord[] = [];
        const items = queryAll(
          this.client,
          {
            TableName: this.table,
            IndexName: 'byNextReport',
            KeyConditionExpression: '#shard = :shard AND #next <= :now',
            ExpressionAttributeNames: { '#shard': 'shard', '#next': 'nextReportAt' },
            ExpressionAttributeValues: { ':shard': shard, ':now': now },
          },
          operation,
        );
        for await (const item of items) found.push(toRecord(item, operation));
        return found;
      }),
    );
    return perShard.flat().sort((a, b) => (a.nextReportAt ?? 0) - (b.nextReportAt ?? 0));
  }

  /**
   * Moves the recipient's `nextReportAt` from `expected` to `next`, only if it still holds
   * `expected` (the claim: of two dispatchers only one queues the recipient's reports).
   */
  async setNextReportAt(email: string, next: number, expected: number): Promise<{ kind: 'set' } | { kind: 'lost' }> {
    return this.conditionalUpdate(
      'recipients.setNextReportAt',
      {
        Key: { email: normalize(email) },
        UpdateExpression: 'SET #next = :next',
        ConditionExpression: '#next = :expected',
        ExpressionAttributeNames: { '#next': 'nextReportAt' },
        ExpressionAttributeValues: { ':next': next, ':expected': expected },
      },
      { kind: 'set' },
      () => ({ kind: 'lost' }),
    );
  }
}

function toRecord(item: unknown, operation: string): RecipientRecord {
  const valid = parseItem(itemSchema, item, operation);
  const clock =
    valid.scheduleTimezone !== undefined && valid.scheduleReportAt !== undefined
      ? { timezone: valid.scheduleTimezone, reportAt: valid.scheduleReportAt }
      : null;
  return {
    email: valid.email,
    mode: valid.mode,
    timezone: valid.timezone,
    reportAt: valid.reportAt,
    weekly: valid.weekly,
    monthly: valid.monthly,
    accounts: [...(valid.accounts ?? [])].sort(),
    nextReportAt: valid.nextReportAt ?? null,
    clock,
    updatedAt: valid.updatedAt,
  };
}

function normalize(email: string): string {
  return email.trim().toLowerCase();
}
