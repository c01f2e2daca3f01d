import * as z from 'zod';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { addressSchema, type Address } from '../domain/address';
import type { DelegateAnnouncement } from '../domain/delegateAnnouncement';
import type { KnownDelegateState } from '../domain/judgeNewDelegates';
import { batchWriteAll } from './batchWrite';
import { parseItem } from './parseItem';
import { queryAll } from './queryAll';
import type { RepositoryOptions } from './repositoryOptions';
import { DynamoRepository } from './dynamoRepository';

/**
 * Sort-key prefix of unknown-key protection items under the account in the `delegates` table. `#`
 * sorts before every address (`0x...`), and the delegate views' query starts past it, so views
 * never see them.
 */
export const PROTECTION_KEY_PREFIX = '#';
const BASELINE = '#baseline';
const UNKNOWN = '#unknown#';

/**
 * Partition-key prefix of an account's known keys (`known#<account>`, sort key the key in lower
 * case). `collect` may only put items here (`dynamodb:LeadingKeys`), never update or delete one,
 * and a key is known by its item being there: nothing collect can write un-knows a key.
 */
export const KNOWN_KEYS_PREFIX = 'known#';
/**
 * Partition-key prefix of an account's announcements (`expect#<account>`, `sentinel delegates
 * expect`): written by the operator's CLI alone; no function may write here.
 */
export const ANNOUNCEMENTS_PREFIX = 'expect#';

const ms = z.number().int().min(0);
const itemSchema = z.discriminatedUnion('kind', [
  z.object({ address: z.string(), delegate: z.literal(BASELINE), kind: z.literal('baseline'), at: ms }),
  z.object({ address: z.string(), delegate: z.string(), kind: z.literal('known'), key: addressSchema, at: ms, source: z.string().max(40) }),
  z.object({ address: z.string(), delegate: z.string(), kind: z.literal('expect'), key: addressSchema, at: ms, expiresAt: ms }),
  z.object({
    address: z.string(),
    delegate: z.string().startsWith(UNKNOWN),
    kind: z.literal('unknown'),
    key: addressSchema,
    at: ms,
    decisionId: z.string().min(1).max(128).optional(),
    judgedAgain: z.boolean().optional(),
  }),
]);
type Item = z.infer<typeof itemSchema>;

/** Why a key became known. */
export type KnownSource = 'baseline' | 'announced';

/** An unknown key to record: first seen `at` (default: the change's time), and the decision asked for it. */
export interface UnknownKeyRecord {
  readonly key: Address;
  readonly at?: number;
  readonly decisionId?: string;
  readonly judgedAgain?: boolean;
}

/** What unknown-key protection keeps of one account, as read in one call. */
export interface KnownDelegatesView extends KnownDelegateState {
  /** Known keys as stored (checksummed), with when and why each became known. */
  readonly knownKeys: readonly { readonly delegate: Address; readonly at: number; readonly source: string }[];
  /**
   * Announcements still kept where they were before they got a partition of their own: not
   * honoured (a function could have written them there) until `sentinel init` moves them.
   */
  readonly unmovedAnnouncements: readonly DelegateAnnouncement[];
}

/** What {@link KnownDelegatesRepository.moveLegacy} moved for one account. */
export interface LegacyMove {
  readonly known: number;
  readonly announcements: number;
}

/**
 * Unknown-key protection state per account, in the `delegates` table: under the account's own
 * partition (`#` sort keys) when the known keys were taken (`#baseline`) and each unknown key seen
 * (`#unknown#<key>`), collect's working state; each known key under `known#<account>` (put only,
 * never deleted); each announcement under `expect#<account>` (the operator's CLI alone). Small:
 * one item per key, read whole in three queries.
 */
export class KnownDelegatesRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'delegates', options);
  }

  /**
   * Everything kept for `address` (strongly consistent). Known keys are those of `known#<account>`
   * and any still kept under the account from before (a key only ever becomes known); the
   * announcements are those of `expect#<account>` alone.
   */
  async read(address: string): Promise<KnownDelegatesView> {
    const [own, known, announced] = await Promise.all([
      this.items(address, PROTECTION_KEY_PREFIX),
      this.items(knownKeysPartition(address)),
      this.items(announcementsPartition(address)),
    ]);
    const knownItems = [...known, ...own].flatMap((i) => (i.kind === 'known' ? [{ delegate: i.key, at: i.at, source: i.source }] : []));
    const knownKeys = [...new Map(knownItems.reverse().map((k) => [k.delegate.toLowerCase(), k])).values()];
    const announcement = (i: Item): DelegateAnnouncement[] => (i.kind === 'expect' ? [{ delegate: i.key, announcedAt: i.at, expiresAt: i.expiresAt }] : []);
    return {
      baselineAt: own.find((i) => i.kind === 'baseline')?.at ?? null,
      known: new Set(knownKeys.map((k) => k.delegate.toLowerCase())),
      knownKeys,
      announcements: announced.flatMap(announcement),
      unmovedAnnouncements: own.flatMap(announcement),
      unknownSeen: own.flatMap((i) => (i.kind === 'unknown' ? [{ delegate: i.key, at: i.at, decisionId: i.decisionId, judgedAgain: i.judgedAgain }] : [])),
    };
  }

  /**
   * Records a change: keys that became known (each put once under `known#<account>`; one already
   * there keeps when and why it became known), unknown keys seen (at `at`, or their own first
   * sighting, with the decision asked for each), then the baseline taken at `baselineAt` (written
   * after the keys it holds, so a baseline never exists without them).
   */
  async recordKeys(
    address: string,
    change: { known?: readonly Address[]; source?: KnownSource; baselineAt?: number; unknown?: readonly (Address | UnknownKeyRecord)[]; at: number },
  ): Promise<void> {
    const known = (change.known ?? []).map((key): Item => ({
      address: knownKeysPartition(address),
      delegate: key.toLowerCase(),
      kind: 'known',
      key,
      at: change.at,
      source: change.source ?? 'baseline',
    }));
    await Promise.all(known.map((item) => this.putOnce(item, 'knownDelegates.recordKeys')));
    await this.write(
      (change.unknown ?? []).map((entry): Item => {
        const { key, at, decisionId, judgedAgain } = typeof entry === 'string' ? { key: entry, at: change.at } : entry;
        return {
          address,
          delegate: UNKNOWN + key.toLowerCase(),
          kind: 'unknown',
          key,
          at: at ?? change.at,
          ...(decisionId === undefined ? {} : { decisionId }),
          ...(judgedAgain === undefined ? {} : { judgedAgain }),
        };
      }),
      'knownDelegates.recordKeys',
    );
    // Only once its keys are stored: a baseline without its keys would make them unknown.
    if (change.baselineAt !== undefined)
      await this.write([{ address, delegate: BASELINE, kind: 'baseline', at: change.baselineAt }], 'knownDelegates.recordKeys');
  }

  /** Opens (or extends, or shortens) the announcement of `delegate` until `expiresAt`. */
  async announce(address: string, announcement: DelegateAnnouncement): Promise<void> {
    const key = announcement.delegate;
    await this.write(
      [
        {
          address: announcementsPartition(address),
          delegate: key.toLowerCase(),
          kind: 'expect',
          key,
          at: announcement.announcedAt,
          expiresAt: announcement.expiresAt,
        },
      ],
      'knownDelegates.announce',
    );
  }

  /** Forgets the baseline (the known keys stay): the next delegate check takes it again before judging anything. */
  async clearBaseline(address: string): Promise<void> {
    await batchWriteAll(
      this.client,
      this.table,
      [{ DeleteRequest: { Key: { address, delegate: BASELINE } } }],
      'knownDelegates.clearBaseline',
      this.options.batch,
    );
  }

  /**
   * Moves the known keys and announcements kept under the account before they had partitions of
   * their own into `known#<account>` and `expect#<account>` (an item already there wins), then
   * deletes the old items. Safe to run again: an account with nothing left to move moves nothing.
   * The operator's one-time step (`sentinel init`, `npm start`).
   */
  async moveLegacy(address: string): Promise<LegacyMove> {
    const own = await this.items(address, PROTECTION_KEY_PREFIX);
    const legacy = own.filter((i) => i.kind === 'known' || i.kind === 'expect');
    for (const item of legacy) {
      const partition = item.kind === 'known' ? knownKeysPartition(address) : announcementsPartition(address);
      await this.putOnce({ ...item, address: partition, delegate: item.key.toLowerCase() }, 'knownDelegates.moveLegacy');
    }
    if (legacy.length > 0) {
      await batchWriteAll(
        this.client,
        this.table,
        legacy.map((i) => ({ DeleteRequest: { Key: { address, delegate: i.delegate } } })),
        'knownDelegates.moveLegacy',
        this.options.batch,
      );
    }
    return { known: legacy.filter((i) => i.kind === 'known').length, announcements: legacy.filter((i) => i.kind === 'expect').length };
  }

  /** The items of one partition (those whose sort key starts with `prefix`, when given). */
  private async items(partition: string, prefix?: string): Promise<Item[]> {
    const items: Item[] = [];
    const query = queryAll(
      this.client,
      {
        TableName: this.table,
        KeyConditionExpression: prefix === undefined ? 'address = :address' : 'address = :address AND begins_with(delegate, :prefix)',
        ExpressionAttributeValues: { ':address': partition, ...(prefix === undefined ? {} : { ':prefix': prefix }) },
        ConsistentRead: true,
      },
      'knownDelegates.read',
    );
    for await (const item of query) items.push(parseItem(itemSchema, item, 'knownDelegates.read'));
    return items;
  }

  /** Puts `item` unless its key is taken (a known key, or an announcement already moved). */
  private async putOnce(item: Item, operation: string): Promise<void> {
    const valid = parseItem(itemSchema, item, operation);
    await this.conditionalPut(operation, { Item: valid, ConditionExpression: 'attribute_not_exists(address)' }, undefined, () => undefined);
  }

  private async write(items: readonly Item[], operation: string): Promise<void> {
    const valid = items.map((i) => parseItem(itemSchema, i, operation));
    const byKey = new Map(valid.map((i) => [`${i.address}\n${i.delegate}`, i]));
    if (byKey.size === 0) return;
    await batchWriteAll(
      this.client,
      this.table,
      [...byKey.values()].map((Item) => ({ PutRequest: { Item } })),
      operation,
      this.options.batch,
    );
  }
}

/** The partition of an account's known keys. */
export function knownKeysPartition(address: string): string {
  return `${KNOWN_KEYS_PREFIX}${address}`;
}

/** The partition of an account's announcements. */
export function announcementsPartition(address: string): string {
  return `${ANNOUNCEMENTS_PREFIX}${address}`;
}
