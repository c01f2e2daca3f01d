import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { accountHealthSchema, accountItemSchema, accountPatchSchema, type AccountHealth, type AccountPatch } from './accountItem';
import type { TrackedAccount } from '../domain/account';
import { batchGetAll } from './batchGet';
import { batchWriteAll, type WriteRequest } from './batchWrite';
import { mapConcurrent } from '../shared/concurrency';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';
import { shardOf } from './shard';
import { isConditionalCheckFailed } from './errors';
import { DynamoRepository } from './dynamoRepository';
import { queryAccountShards, reportKeySchema, slotAttributes } from './accountShards';
import type { Interval } from '../domain/interval';

/** The item attribute holding the delegate watch's mark (not part of the record). */
const DELEGATE_MARK = 'delegateMark';

/** Outcome of `importMany`: addresses created, existing ones whose settings were updated, and existing ones left as they were (`existing: 'leave'`). */
export interface ImportOutcome {
  readonly created: string[];
  readonly updated: string[];
  readonly existed: string[];
  readonly consumedWriteUnits: number;
}

const SETTINGS_FIELDS = [
  'emails',
  'label',
  'interval',
  'drawdownThresholds',
  'reportAt',
  'timezone',
  'expiryWarnDays',
  'signer',
  'delegateWatch',
] as const satisfies readonly (keyof TrackedAccount)[];

/**
 * Tracked accounts (table `accounts`, key `address`): settings, health, import and removal. Each
 * item also carries `shard`, the partition key of the `byNextDue` (sparse: only accounts with a
 * pending one-off poll) and `byNextReport` indexes, and its place in the `bySlot` schedule index
 * (`slotCadence`, `slotMinute`, see `domain/schedule`), which changes only with the settings; so a
 * regular poll writes nothing here. Reading and claiming that schedule is `AccountScheduleRepository`'s.
 */
export class AccountsRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'accounts', options);
  }

  /** Adds an account unless one with this address exists. */
  async create(account: TrackedAccount): Promise<{ kind: 'created' } | { kind: 'exists' }> {
    const item = toItem(account, 'accounts.create');
    return this.conditionalPut('accounts.create', { Item: item, ConditionExpression: 'attribute_not_exists(address)' }, { kind: 'created' }, () => ({
      kind: 'exists',
    }));
  }

  /** The account, read consistently, or null. */
  async get(address: string): Promise<TrackedAccount | null> {
    const out = await this.call('accounts.get', () => this.client.send(new GetCommand({ TableName: this.table, Key: { address }, ConsistentRead: true })));
    return out.Item ? parseItem(accountItemSchema, out.Item, 'accounts.get') : null;
  }

  /** The account (read consistently) and the delegate watch's mark stored on it, or null. */
  async getWithMark(address: string): Promise<{ account: TrackedAccount; delegateMark: string | null } | null> {
    const out = await this.call('accounts.getWithMark', () =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { address }, ConsistentRead: true })),
    );
    if (!out.Item) return null;
    const mark = out.Item[DELEGATE_MARK];
    return { account: parseItem(accountItemSchema, out.Item, 'accounts.getWithMark'), delegateMark: typeof mark === 'string' ? mark : null };
  }

  /** The accounts of those addresses that are tracked (read consistently, 100 per `BatchGetItem`), in no particular order. */
  async getMany(addresses: readonly string[]): Promise<TrackedAccount[]> {
    const keys = [...new Set(addresses)].map((address) => ({ address }));
    const items = await batchGetAll(this.client, this.table, keys, 'accounts.getMany', this.options.batch);
    return items.map((item) => parseItem(accountItemSchema, item, 'accounts.getMany'));
  }

  /**
   * Changes some settings (and/or the schedule times; `nextDueAt: null` clears a pending poll);
   * returns the account as now stored. A new interval or delegate watch moves the account in the
   * schedule index.
   */
  async updateSettings(address: string, patch: AccountPatch): Promise<{ kind: 'updated'; account: TrackedAccount } | { kind: 'not-found' }> {
    const valid = parseItem(accountPatchSchema, patch, 'accounts.updateSettings');
    const entries: [string, unknown][] = Object.entries(valid).filter(([, value]) => value !== undefined);
    if (valid.interval !== undefined || valid.delegateWatch !== undefined) {
      const current = valid.interval !== undefined && valid.delegateWatch !== undefined ? null : await this.get(address);
      const interval = valid.interval ?? current?.interval;
      const watch = valid.delegateWatch !== undefined ? valid.delegateWatch : (current?.delegateWatch ?? null);
      if (interval === undefined) return { kind: 'not-found' };
      entries.push(...Object.entries(slotAttributes(address, interval, watch)));
    }
    if (entries.length === 0) {
      const account = await this.get(address);
      return account ? { kind: 'updated', account } : { kind: 'not-found' };
    }
    const sets = entries.filter(([name, value]) => !(name === 'nextDueAt' && value === null));
    // Any settings change (warn days, watch) invalidates the delegate watch's mark: the next check is a full one.
    const removes: [string, unknown][] = [...entries.filter(([name, value]) => name === 'nextDueAt' && value === null), [DELEGATE_MARK, null]];
    const clauses = [
      sets.length > 0 ? `SET ${sets.map(([name]) => `#${name} = :${name}`).join(', ')}` : '',
      removes.length > 0 ? `REMOVE ${removes.map(([name]) => `#${name}`).join(', ')}` : '',
    ].filter((c) => c !== '');
    return this.call('accounts.updateSettings', async () => {
      try {
        const out = await this.client.send(
          new UpdateCommand({
            TableName: this.table,
            Key: { address },
            UpdateExpression: clauses.join(' '),
            ExpressionAttributeNames: Object.fromEntries([...entries, ...removes].map(([name]) => [`#${name}`, name])),
            ...(sets.length > 0 ? { ExpressionAttributeValues: Object.fromEntries(sets.map(([name, value]) => [`:${name}`, value])) } : {}),
            ConditionExpression: 'attribute_exists(address)',
            ReturnValues: 'ALL_NEW',
          }),
        );
        return { kind: 'updated', account: parseItem(accountItemSchema, out.Attributes, 'accounts.updateSettings') };
      } catch (error) {
        if (isConditionalCheckFailed(error)) return { kind: 'not-found' };
        throw error;
      }
    });
  }

  /** Stops tracking an account (its stored history expires by TTL). */
  async remove(address: string): Promise<{ kind: 'removed' } | { kind: 'not-found' }> {
    return this.conditionalDelete('accounts.remove', { Key: { address }, ConditionExpression: 'attribute_exists(address)' }, { kind: 'removed' }, () => ({
      kind: 'not-found',
    }));
  }

  /**
   * Stops tracking many accounts: finds which are tracked (`BatchGetItem`, 100 at a time), then
   * deletes those with `BatchWriteItem` (25 at a time, several in flight). An account added again
   * between the two steps is removed as well.
   */
  async removeMany(addresses: readonly string[]): Promise<{ removed: string[]; notFound: string[] }> {
    const unique = [...new Set(addresses)];
    const found = new Set((await this.getMany(unique)).map((account) => account.address as string));
    const removed = unique.filter((address) => found.has(address));
    const requests: WriteRequest[] = removed.map((address) => ({ DeleteRequest: { Key: { address } } }));
    await batchWriteAll(this.client, this.table, requests, 'accounts.removeMany', { concurrency: 8, ...this.options.batch });
    return { removed, notFound: unique.filter((address) => !found.has(address)) };
  }

  /** Every tracked account, by address (queries each shard of `byNextReport`, page by page). */
  async list(): Promise<TrackedAccount[]> {
    const keys = await queryAccountShards(this.client, this.table, 'accounts.list', 'byNextReport', undefined, Number.POSITIVE_INFINITY, reportKeySchema);
    const all = await this.getMany(keys.map((k) => k.address));
    return all.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  }

  /**
   * Stores the delegate watch's mark (`domain/delegateMark`) after a full check, unless the
   * account is gone. Settings changes remove it, so the next check is a full one.
   */
  async setDelegateMark(address: string, mark: string): Promise<{ kind: 'set' } | { kind: 'not-found' }> {
    return this.conditionalUpdate(
      'accounts.setDelegateMark',
      {
        Key: { address },
        UpdateExpression: 'SET #mark = :mark',
        ConditionExpression: 'attribute_exists(address)',
        ExpressionAttributeNames: { '#mark': DELEGATE_MARK },
        ExpressionAttributeValues: { ':mark': mark },
      },
      { kind: 'set' },
      () => ({ kind: 'not-found' }),
    );
  }

  /** Sets the account's health (status, reason, error and empty-poll counts) and nothing else. */
  async recordHealth(address: string, health: AccountHealth): Promise<{ kind: 'recorded' } | { kind: 'not-found' }> {
    const fields = Object.entries(parseItem(accountHealthSchema, health, 'accounts.recordHealth'));
    return this.conditionalUpdate(
      'accounts.recordHealth',
      {
        Key: { address },
        UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(address)',
        ExpressionAttributeNames: Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(fields.map(([, value], i) => [`:v${i}`, value])),
      },
      { kind: 'recorded' },
      () => ({ kind: 'not-found' }),
    );
  }

  /**
   * Adds or updates many accounts at once. New addresses are written whole, each with a
   * conditional `PutItem` (`attribute_not_exists`), so an account another writer adds meanwhile is
   * never overwritten. An address that exists (read first with `BatchGetItem`, or found by the
   * condition): with `existing: 'update'` (the default) only its settings are set from the record,
   * its schedule and collection health kept; with `'leave'` it is left as it is and returned in
   * `existed`, for a caller that knows which settings its rows name. Later duplicates of an address win.
   */
  async importMany(accounts: readonly TrackedAccount[], options: { readonly existing?: 'update' | 'leave' } = {}): Promise<ImportOutcome> {
    const byAddress = new Map<string, TrackedAccount>();
    for (const account of accounts) byAddress.set(account.address, account);
    const items = [...byAddress.values()].map((account) => toItem(account, 'accounts.importMany'));
    const read = await batchGetAll(
      this.client,
      this.table,
      items.map((item) => ({ address: item.address })),
      'accounts.importMany',
      this.options.batch,
    );
    const existing = new Set(read.map((item) => String(item['address'])));
    const created: string[] = [];
    let consumedWriteUnits = 0;
    await mapConcurrent(
      items.filter((item) => !existing.has(item.address)),
      16,
      async (item) => {
        // A refused condition is charged a write unit too.
        let units = 1;
        const put = await this.conditionalWrite(
          'accounts.importMany',
          async () => {
            const out = await this.client.send(
              new PutCommand({ TableName: this.table, Item: item, ConditionExpression: 'attribute_not_exists(address)', ReturnConsumedCapacity: 'TOTAL' }),
            );
            units = out.ConsumedCapacity?.CapacityUnits ?? 1;
          },
          'created',
          () => 'exists',
        );
        consumedWriteUnits += units;
        if (put === 'created') created.push(item.address);
        else existing.add(item.address);
      },
    );
    if (options.existing === 'leave') return { created: created.sort(), updated: [], existed: [...existing].sort(), consumedWriteUnits };

    const updated: string[] = [];
    const recreated: TrackedAccount[] = [];
    await mapConcurrent([...existing], 16, async (address) => {
      const account = byAddress.get(address) as TrackedAccount;
      const settings = Object.fromEntries(SETTINGS_FIELDS.map((field) => [field, account[field]])) as AccountPatch;
      const outcome = await this.updateSettings(address, settings);
      if (outcome.kind === 'updated') updated.push(address);
      else recreated.push(account);
    });
    // Removed between the read and the update: create it after all.
    for (const account of recreated) {
      if ((await this.create(account)).kind === 'created') created.push(account.address);
    }
    return { created: created.sort(), updated: updated.sort(), existed: [], consumedWriteUnits };
  }
}

type AccountItem = Omit<TrackedAccount, 'nextDueAt'> & { nextDueAt?: number; shard: string; slotCadence: Interval; slotMinute: number };

/** The stored item: the record plus its index keys; no `nextDueAt` unless a one-off poll is pending (a sparse index). */
function toItem(account: TrackedAccount, operation: string): AccountItem {
  const { nextDueAt, ...valid } = parseItem(accountItemSchema, account, operation);
  return {
    ...valid,
    ...(nextDueAt === null ? {} : { nextDueAt }),
    shard: shardOf(valid.address),
    ...slotAttributes(valid.address, valid.interval, valid.delegateWatch),
  };
}
