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
 * Sort-key prefix of unknown-key protection items in the `delegates` table. `#` sorts before
 * every address (`0x...`), and the delegate views' query starts past it, so views never see them.
 */
export const PROTECTION_KEY_PREFIX = '#';
const BASELINE = '#baseline';
const KNOWN = '#known#';
const EXPECT = '#expect#';
const UNKNOWN = '#unknown#';

const ms = z.number().int().min(0);
const itemSchema = z.discriminatedUnion('kind', [
  z.object({ address: z.string(), delegate: z.literal(BASELINE), kind: z.literal('baseline'), at: ms }),
  z.object({ address: z.string(), delegate: z.string().startsWith(KNOWN), kind: z.literal('known'), key: addressSchema, at: ms, source: z.string().max(40) }),
  z.object({ address: z.string(), delegate: z.string().startsWith(EXPECT), kind: z.literal('expect'), key: addressSchema, at: ms, expiresAt: ms }),
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

/** What unknown-key protection keeps of one account, as read in one query. */
export interface KnownDelegatesView extends KnownDelegateState {
  /** Known keys as stored (checksummed), with when and why each became known. */
  readonly knownKeys: readonly { readonly delegate: Address; readonly at: number; readonly source: string }[];
}

/**
 * Unknown-key protection state per account, kept in the `delegates` table under `#` sort keys:
 * when the known keys were taken (`#baseline`), each known key (`#known#<key>`), each
 * announcement (`#expect#<key>`, `sentinel delegates expect`) and each unknown key seen
 * (`#unknown#<key>`). Small: one item per key, read whole in one query.
 */
export class KnownDelegatesRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'delegates', options);
  }

  /** Everything kept for `address` (strongly consistent). */
  async read(address: string): Promise<KnownDelegatesView> {
    const items: Item[] = [];
    const query = queryAll(
      this.client,
      {
        TableName: this.table,
        KeyConditionExpression: 'address = :address AND begins_with(delegate, :prefix)',
        ExpressionAttributeValues: { ':address': address, ':prefix': PROTECTION_KEY_PREFIX },
        ConsistentRead: true,
      },
      'knownDelegates.read',
    );
    for await (const item of query) items.push(parseItem(itemSchema, item, 'knownDelegates.read'));
    const knownKeys = items.flatMap((i) => (i.kind === 'known' ? [{ delegate: i.key, at: i.at, source: i.source }] : []));
    return {
      baselineAt: items.find((i) => i.kind === 'baseline')?.at ?? null,
      known: new Set(knownKeys.map((k) => k.delegate.toLowerCase())),
      knownKeys,
      announcements: items.flatMap((i): DelegateAnnouncement[] =>
        i.kind === 'expect' ? [{ delegate: i.key, announcedAt: i.at, expiresAt: i.expiresAt }] : [],
      ),
      unknownSeen: items.flatMap((i) => (i.kind === 'unknown' ? [{ delegate: i.key, at: i.at, decisionId: i.decisionId, judgedAgain: i.judgedAgain }] : [])),
    };
  }

  /**
   * Records a change: keys that became known, unknown keys seen (at `at`, or their own first
   * sighting, with the decision asked for each), then the baseline taken at `baselineAt` (written
   * after the keys it holds, so a baseline never exists without them).
   */
  async record(
    address: string,
    change: { known?: readonly Address[]; source?: KnownSource; baselineAt?: number; unknown?: readonly (Address | UnknownKeyRecord)[]; at: number },
  ): Promise<void> {
    const items: Item[] = [
      ...(change.known ?? []).map((key): Item => ({
        address,
        delegate: KNOWN + key.toLowerCase(),
        kind: 'known',
        key,
        at: change.at,
        source: change.source ?? 'baseline',
      })),
      ...(change.unknown ?? []).map((entry): Item => {
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
    ];
    await this.write(items, 'knownDelegates.record');
    // Only once its keys are stored: a batch is not atomic, and a baseline without its keys would make them unknown.
    if (change.baselineAt !== undefined) await this.write([{ address, delegate: BASELINE, kind: 'baseline', at: change.baselineAt }], 'knownDelegates.record');
  }

  /** Opens (or extends, or shortens) the announcement of `delegate` until `expiresAt`. */
  async announce(address: string, announcement: DelegateAnnouncement): Promise<void> {
    const key = announcement.delegate;
    await this.write(
      [{ address, delegate: EXPECT + key.toLowerCase(), kind: 'expect', key, at: announcement.announcedAt, expiresAt: announcement.expiresAt }],
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

  private async write(items: readonly Item[], operation: string): Promise<void> {
    const valid = items.map((i) => parseItem(itemSchema, i, operation));
    const byKey = new Map(valid.map((i) => [i.delegate, i]));
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
