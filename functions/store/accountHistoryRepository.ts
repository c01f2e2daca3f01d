import * as z from 'zod';
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { alertHistoryEntrySchema, alertHistoryId, type AlertHistoryEntry } from '../domain/alertHistoryEntry';
import { deliveryHistoryEntrySchema, type DeliveryHistoryEntry } from '../domain/deliveryHistoryEntry';
import { DynamoRepository } from './dynamoRepository';
import { StoreError } from './errors';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';
import { isLive, toTtlSeconds } from './ttl';

/** Partition-key prefix of an account's alert history (`alert#<address>`): IAM confines its writers to it. */
export const ALERT_HISTORY_PREFIX = 'alert#';
/** Partition-key prefix of an account's deliveries (`delivery#<address>`). */
export const DELIVERY_HISTORY_PREFIX = 'delivery#';
/** How long an event stays in an account's history. */
export const HISTORY_RETENTION_MS = 90 * 24 * 3_600_000;

/** One page of an account's history, newest first; `next`: where the following (older) page starts, `null` at the end. */
export interface HistoryPage<T> {
  readonly entries: readonly T[];
  readonly next: string | null;
}

/** A sort key this table writes: the event's time (15 digits, so text order is time order), then its id. */
const SORT_KEY = /^\d{15}#.{1,900}$/;

const alertItemSchema = z.object({ stream: z.string(), at: z.string().regex(SORT_KEY), entry: alertHistoryEntrySchema, expiresAt: z.number().int() });
const deliveryItemSchema = z.object({ stream: z.string(), at: z.string().regex(SORT_KEY), entry: deliveryHistoryEntrySchema, expiresAt: z.number().int() });

/** The time part of a sort key: text order is time order. */
function sortKeyTime(at: number): string {
  return String(at).padStart(15, '0');
}

function sortKey(at: number, id: string): string {
  return `${sortKeyTime(at)}#${id}`;
}

/**
 * Each account's history for the desk page (table `history`), one item per event under
 * `alert#<address>` or `delivery#<address>`, kept {@link HISTORY_RETENTION_MS}: written as it
 * happens (a redone write of the same event lands on the same item), read newest first a page at
 * a time. Only ever a `PutItem` or a `Query` of one partition.
 */
export class AccountHistoryRepository extends DynamoRepository<RepositoryOptions & { readonly retentionMs?: number }> {
  private readonly retentionMs: number;

  /** `retentionMs`: how long an event is kept (default {@link HISTORY_RETENTION_MS}; tests on a past clock keep theirs longer). */
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions & { readonly retentionMs?: number } = {}) {
    super(client, prefix, 'history', options);
    this.retentionMs = options.retentionMs ?? HISTORY_RETENTION_MS;
  }

  /** Records alert events of `address` (one `PutItem` each). */
  async recordAlerts(address: string, entries: readonly AlertHistoryEntry[]): Promise<void> {
    await Promise.all(
      entries.map((entry) => {
        const item = parseItem(
          alertItemSchema,
          {
            stream: `${ALERT_HISTORY_PREFIX}${address}`,
            at: sortKey(entry.at, alertHistoryId(entry)),
            entry,
            expiresAt: toTtlSeconds(entry.at + this.retentionMs),
          },
          'history.recordAlerts',
        );
        return this.call('history.recordAlerts', () => this.client.send(new PutCommand({ TableName: this.table, Item: item })));
      }),
    );
  }

  /** Records one delivery about `address` and its outcome (one `PutItem`). */
  async recordDelivery(address: string, entry: DeliveryHistoryEntry): Promise<void> {
    const item = parseItem(
      deliveryItemSchema,
      {
        stream: `${DELIVERY_HISTORY_PREFIX}${address}`,
        at: sortKey(entry.at, `${entry.eventId}#${entry.via}:${entry.to.toLowerCase()}#${entry.outcome}`),
        entry,
        expiresAt: toTtlSeconds(entry.at + this.retentionMs),
      },
      'history.recordDelivery',
    );
    await this.call('history.recordDelivery', () => this.client.send(new PutCommand({ TableName: this.table, Item: item })));
  }

  /** A page of `address`'s alert history, newest first, from after `after` (a page's `next`; `null`: the newest). */
  async alerts(address: string, limit: number, after: string | null): Promise<HistoryPage<AlertHistoryEntry>> {
    return this.page('history.alerts', `${ALERT_HISTORY_PREFIX}${address}`, limit, after, (item) => parseItem(alertItemSchema, item, 'history.alerts'));
  }

  /** A page of the deliveries about `address`, newest first. */
  async deliveries(address: string, limit: number, after: string | null): Promise<HistoryPage<DeliveryHistoryEntry>> {
    return this.page('history.deliveries', `${DELIVERY_HISTORY_PREFIX}${address}`, limit, after, (item) =>
      parseItem(deliveryItemSchema, item, 'history.deliveries'),
    );
  }

  /**
   * Every delivery about `address` at or after `since` (ms) that ended in `outcome`, oldest first
   * (one `Query` of the account's partition, page by page, filtered by outcome).
   */
  async deliveriesSince(address: string, since: number, outcome: DeliveryHistoryEntry['outcome']): Promise<DeliveryHistoryEntry[]> {
    const items = await this.queryItems(
      'history.deliveriesSince',
      {
        KeyConditionExpression: '#stream = :stream AND #at >= :from',
        FilterExpression: '#entry.#outcome = :outcome',
        ExpressionAttributeNames: { '#stream': 'stream', '#at': 'at', '#entry': 'entry', '#outcome': 'outcome' },
        ExpressionAttributeValues: { ':stream': `${DELIVERY_HISTORY_PREFIX}${address}`, ':from': sortKeyTime(Math.max(0, since)), ':outcome': outcome },
      },
      (item) => parseItem(deliveryItemSchema, item, 'history.deliveriesSince'),
    );
    const now = this.now();
    return items.filter((item) => isLive(item.expiresAt, now)).map((item) => item.entry);
  }

  /** Whether `value` has the form of a page's `next` (a cursor's content is checked before it reaches here). */
  static isPosition(value: string): boolean {
    return SORT_KEY.test(value);
  }

  private async page<T>(
    operation: string,
    stream: string,
    limit: number,
    after: string | null,
    read: (item: Record<string, unknown>) => { at: string; entry: T; expiresAt: number },
  ): Promise<HistoryPage<T>> {
    if (after !== null && !SORT_KEY.test(after)) throw new StoreError(operation, 'not a history position');
    const { live, last } = await this.pageNewestFirst(
      operation,
      {
        KeyConditionExpression: '#stream = :stream',
        ExpressionAttributeNames: { '#stream': 'stream' },
        ExpressionAttributeValues: { ':stream': stream },
        ...(after === null ? {} : { ExclusiveStartKey: { stream, at: after } }),
      },
      limit,
      read,
    );
    return { entries: live.map((i) => i.entry), next: last?.at ?? null };
  }
}
