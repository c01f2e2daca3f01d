import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Interval } from '../domain/interval';
import { accountItemSchema } from './accountItem';
import type { TrackedAccount } from '../domain/account';
import { queryAccountShards, reportKeySchema, slotAttributes } from './accountShards';
import { batchGetAll } from './batchGet';
import { DynamoRepository } from './dynamoRepository';
import { isConditionalCheckFailed } from './errors';
import { parseItem } from './parseItem';
import { queryAll } from './queryAll';
import type { RepositoryOptions } from './repositoryOptions';
import { pendingEntrySchema, slotEntrySchema, type PendingEntry, type SlotEntry } from './slotEntry';

/** Key of the one item of the table that is not an account: the dispatcher's cursor. */
const DISPATCH_CURSOR_KEY = '#dispatch';

/**
 * The schedule side of table `accounts`: which accounts are due (the `bySlot`, `byNextDue` and
 * `byNextReport` indexes), the claims that make one dispatcher of two queue a job, the next
 * report time, and the dispatcher's cursor (item `#dispatch`). The accounts themselves (settings,
 * health, import) are `AccountsRepository`'s; both write the same items, each its own attributes.
 */
export class AccountScheduleRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'accounts', options);
  }

  /**
   * Accounts with a one-off poll pending (`nextDueAt <= now`: first polls, re-fetches after an
   * interval change), at most `limitPerShard` from each shard, earliest first. The index is
   * eventually consistent: claim each one with `claimPending`.
   */
  async queryPending(now: number, limitPerShard: number): Promise<PendingEntry[]> {
    const due = await queryAccountShards(this.client, this.table, 'accounts.queryPending', 'byNextDue', now, limitPerShard, pendingEntrySchema);
    return due.sort((a, b) => a.nextDueAt - b.nextDueAt);
  }

  /**
   * Accounts whose next report is due (`nextReportAt <= now`), earliest first: the addresses from
   * the keys-only `byNextReport` index, then the accounts read whole and consistently, so one whose
   * report another run has just claimed is left out.
   */
  async queryReportsDue(now: number): Promise<TrackedAccount[]> {
    const keys = await queryAccountShards(this.client, this.table, 'accounts.queryReportsDue', 'byNextReport', now, Number.POSITIVE_INFINITY, reportKeySchema);
    const due = (
      await this.readAccounts(
        keys.map((k) => k.address),
        'accounts.queryReportsDue',
      )
    ).filter((a) => a.nextReportAt <= now);
    return due.sort((a, b) => a.nextReportAt - b.nextReportAt);
  }

  /**
   * The accounts in one partition of the schedule index (`slotCadence = cadence`) whose
   * `slotMinute` lies in one of `ranges` (inclusive), or all of them.
   */
  async querySlots(cadence: Interval, ranges: 'all' | readonly (readonly [number, number])[]): Promise<SlotEntry[]> {
    const operation = 'accounts.querySlots';
    const conditions: (readonly [number, number] | null)[] = ranges === 'all' ? [null] : [...ranges];
    const found: SlotEntry[] = [];
    for (const range of conditions) {
      const items = queryAll(
        this.client,
        {
          TableName: this.table,
          IndexName: 'bySlot',
          KeyConditionExpression: range ? '#cadence = :cadence AND #minute BETWEEN :from AND :to' : '#cadence = :cadence',
          ExpressionAttributeNames: range ? { '#cadence': 'slotCadence', '#minute': 'slotMinute' } : { '#cadence': 'slotCadence' },
          ExpressionAttributeValues: { ':cadence': cadence, ...(range ? { ':from': range[0], ':to': range[1] } : {}) },
        },
        operation,
      );
      for await (const item of items) found.push(parseItem(slotEntrySchema, item, operation));
    }
    return found;
  }

  /**
   * Ends a pending one-off poll (removes `nextDueAt`) if it still holds the value read, so that of
   * two dispatchers that saw it only one queues it; also (re)writes the account's place in the
   * schedule index, which migrates records written before the index existed.
   */
  async claimPending(
    account: Pick<TrackedAccount, 'address' | 'interval' | 'delegateWatch'>,
    expectedNextDueAt: number,
  ): Promise<{ kind: 'claimed' } | { kind: 'lost' }> {
    const slot = slotAttributes(account.address, account.interval, account.delegateWatch);
    return this.call('accounts.claimPending', async () => {
      try {
        await this.client.send(
          new UpdateCommand({
            TableName: this.table,
            Key: { address: account.address },
            UpdateExpression: 'REMOVE #due SET #cadence = :cadence, #minute = :minute',
            ConditionExpression: '#due = :expected',
            ExpressionAttributeNames: { '#due': 'nextDueAt', '#cadence': 'slotCadence', '#minute': 'slotMinute' },
            ExpressionAttributeValues: { ':expected': expectedNextDueAt, ':cadence': slot.slotCadence, ':minute': slot.slotMinute },
          }),
        );
        return { kind: 'claimed' };
      } catch (error) {
        if (isConditionalCheckFailed(error)) return { kind: 'lost' };
        throw error;
      }
    });
  }

  /** The last epoch minute whose slots the dispatcher has queued, or null before its first run. */
  async dispatchCursor(): Promise<number | null> {
    const out = await this.call('accounts.dispatchCursor', () =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { address: DISPATCH_CURSOR_KEY }, ConsistentRead: true })),
    );
    const value = out.Item?.['dispatchedThrough'];
    return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
  }

  /**
   * Moves the dispatcher's cursor from `expected` (null: none yet) to `minute`, only if it still
   * holds `expected`; a dispatcher that lost the race queued duplicates that collect ignores.
   */
  async advanceDispatchCursor(expected: number | null, minute: number): Promise<{ kind: 'advanced' } | { kind: 'lost' }> {
    return this.advanceCursorAt('accounts.advanceDispatchCursor', { address: DISPATCH_CURSOR_KEY }, 'dispatchedThrough', expected, minute);
  }

  /**
   * Sets `nextReportAt`; with `expectedNextReportAt`, only if it still has that value (so a
   * report run that raced another one does not send twice).
   */
  async setNextReportAt(address: string, nextReportAt: number, expectedNextReportAt?: number): Promise<{ kind: 'set' } | { kind: 'lost' }> {
    return this.conditionalSet('accounts.setNextReportAt', address, 'nextReportAt', expectedNextReportAt, nextReportAt).then((won) =>
      won ? { kind: 'set' } : { kind: 'lost' },
    );
  }

  /** Accounts of those addresses, read consistently (100 per `BatchGetItem`). */
  private async readAccounts(addresses: readonly string[], operation: string): Promise<TrackedAccount[]> {
    const keys = [...new Set(addresses)].map((address) => ({ address }));
    const items = await batchGetAll(this.client, this.table, keys, operation, this.options.batch);
    return items.map((item) => parseItem(accountItemSchema, item, operation));
  }

  private async conditionalSet(operation: string, address: string, field: 'nextReportAt', expected: number | undefined, value: number): Promise<boolean> {
    return this.conditionalUpdate(
      operation,
      {
        Key: { address },
        UpdateExpression: 'SET #field = :value',
        ConditionExpression: expected === undefined ? 'attribute_exists(address)' : '#field = :expected',
        ExpressionAttributeNames: { '#field': field },
        ExpressionAttributeValues: { ':value': value, ...(expected === undefined ? {} : { ':expected': expected }) },
      },
      true,
      () => false,
    );
  }
}
