/**
 * The DynamoDB tables, defined once: the CDK data stack and the local table creation both read
 * this list, so the two cannot drift. Every read the jobs do is a Query or GetItem on these keys.
 */
export type KeyType = 'S' | 'N';

export interface KeyDefinition {
  readonly name: string;
  readonly type: KeyType;
}

/**
 * What an index copies of each item besides the keys: nothing (`KEYS_ONLY`), or the named
 * attributes its queries read (`INCLUDE`). Never `ALL`: every copied attribute is written to the
 * index again whenever it changes, and read again by every query.
 */
export type IndexProjection = { readonly type: 'KEYS_ONLY' } | { readonly type: 'INCLUDE'; readonly attributes: readonly string[] };

export interface GlobalIndexDefinition {
  readonly indexName: string;
  readonly partitionKey: KeyDefinition;
  readonly sortKey?: KeyDefinition;
  readonly projection: IndexProjection;
  /** Read by one function alone: a grant of the table leaves it out, and that function's role names it. */
  readonly restricted?: true;
}

export interface TableDefinition {
  /** Logical id; the physical name is `${prefix}${id}`. */
  readonly id: TableId;
  readonly partitionKey: KeyDefinition;
  readonly sortKey?: KeyDefinition;
  /** Epoch-seconds attribute DynamoDB expires items by; reads still filter expired items. */
  readonly ttlAttribute?: string;
  readonly globalIndexes?: readonly GlobalIndexDefinition[];
  /** One line on what lives here, for docs and the CDK description. */
  readonly purpose: string;
}

export type TableId =
  | 'accounts'
  | 'curves'
  | 'snapshots'
  | 'alerts'
  | 'delegates'
  | 'tokens'
  | 'audit'
  | 'deliveries'
  | 'suppressions'
  | 'preferences'
  | 'leases'
  | 'channels'
  | 'desk'
  | 'history';

/** The `tokens` index of protective decisions by account (`account`, `createdAt`). */
export const DECISIONS_BY_ACCOUNT_INDEX = 'decisionsByAccount';

/** Number of shards the due-time indexes are spread over (queried one by one, never scanned). */
export const SCHEDULE_SHARDS = 8;

/** A string key attribute. */
function stringKey(name: string): KeyDefinition {
  return { name, type: 'S' };
}

/** A number key attribute. */
function numberKey(name: string): KeyDefinition {
  return { name, type: 'N' };
}

/** Every definition with its `id`: the key it is listed under. */
function withIds(specs: Readonly<Record<TableId, Omit<TableDefinition, 'id'>>>): Readonly<Record<TableId, TableDefinition>> {
  const ids = Object.keys(specs) as TableId[];
  return Object.fromEntries(ids.map((id) => [id, { id, ...specs[id] }])) as Record<TableId, TableDefinition>;
}

const TTL = 'expiresAt';

export const TABLES: Readonly<Record<TableId, TableDefinition>> = withIds({
  accounts: {
    purpose: 'Tracked accounts: settings, schedule slot, pending one-off polls, next report time, collection health, onboarding batch.',
    partitionKey: stringKey('address'),
    globalIndexes: [
      {
        indexName: 'bySlot',
        partitionKey: stringKey('slotCadence'),
        sortKey: numberKey('slotMinute'),
        // What dispatch decides a minute's jobs from (`SlotEntry`), and the delegate watch's mark.
        projection: { type: 'INCLUDE', attributes: ['interval', 'delegateWatch', 'nextDueAt', 'delegateMark'] },
      },
      {
        indexName: 'byNextDue',
        partitionKey: stringKey('shard'),
        sortKey: numberKey('nextDueAt'),
        // What dispatch needs to queue and claim a pending poll (`PendingEntry`).
        projection: { type: 'INCLUDE', attributes: ['interval', 'delegateWatch'] },
      },
      // Addresses only: the few accounts found are then read whole (`BatchGetItem`, consistent).
      { indexName: 'byNextReport', partitionKey: stringKey('shard'), sortKey: numberKey('nextReportAt'), projection: { type: 'KEYS_ONLY' } },
      {
        indexName: 'byBatch',
        partitionKey: numberKey('createdAt'),
        sortKey: stringKey('address'),
        // An onboarding batch's members (one `add` or `import` run shares `createdAt`) and whether each had its first poll.
        projection: { type: 'INCLUDE', attributes: ['polled'] },
        // Queried by notify's onboarding check alone.
        restricted: true,
      },
    ],
  },
  curves: {
    purpose: 'Equity and PnL curve points as received, per account and interval.',
    partitionKey: stringKey('series'),
    sortKey: numberKey('ts'),
    ttlAttribute: TTL,
  },
  snapshots: {
    purpose: 'Summary snapshots as received, each with its delta to the previous one.',
    partitionKey: stringKey('address'),
    sortKey: numberKey('polledAt'),
    ttlAttribute: TTL,
  },
  alerts: { purpose: 'Alert state machine position per account and rule; snooze.', partitionKey: stringKey('address'), sortKey: stringKey('rule') },
  delegates: {
    purpose: 'Delegates last seen per account: expiry, name, first seen, warnings sent.',
    partitionKey: stringKey('address'),
    sortKey: stringKey('delegate'),
  },
  tokens: {
    purpose: 'Consumed action-link tokens (single use), expiring with the token; protective decisions and their signing state.',
    partitionKey: stringKey('tokenId'),
    ttlAttribute: TTL,
    globalIndexes: [
      {
        // An account's protective decisions, newest first (the desk's protection section). Only decisions carry both
        // `account` and `createdAt` (revoke and revoke-all tokens have no `createdAt`), so the index holds them alone.
        indexName: DECISIONS_BY_ACCOUNT_INDEX,
        partitionKey: stringKey('account'),
        sortKey: numberKey('createdAt'),
        projection: { type: 'INCLUDE', attributes: ['decisionId', 'rule', 'reason', 'evidence', 'delegates', 'dryRun', 'expiresAt'] },
        // Queried by the desk page alone.
        restricted: true,
      },
    ],
  },
  audit: { purpose: 'Every revocation attempt and its outcome.', partitionKey: stringKey('address'), sortKey: stringKey('at') },
  deliveries: {
    purpose: 'One record per alert event or report sent: exactly-once delivery, SES message id.',
    partitionKey: stringKey('eventId'),
    ttlAttribute: TTL,
  },
  suppressions: { purpose: 'Addresses that bounced, complained or unsubscribed.', partitionKey: stringKey('email') },
  preferences: {
    purpose:
      'Per address: mail categories opted out of, and the recipient record (digest or per-account, own zone/time, weekly/monthly summaries, its accounts, its own next report).',
    partitionKey: stringKey('email'),
    globalIndexes: [
      {
        indexName: 'byNextReport',
        partitionKey: stringKey('shard'),
        sortKey: numberKey('nextReportAt'),
        // The settings dispatch claims a recipient's day from; not its account set (the job re-reads the record).
        projection: {
          type: 'INCLUDE',
          attributes: ['mode', 'timezone', 'reportAt', 'weekly', 'monthly', 'scheduleTimezone', 'scheduleReportAt', 'updatedAt'],
        },
      },
    ],
  },
  channels: {
    purpose:
      'Chat, pager and webhook channels: type, secret reference (never the secret), categories, accounts, state; one partition (a few items), read whole.',
    partitionKey: stringKey('scope'),
    sortKey: stringKey('name'),
  },
  leases: { purpose: 'Short leases that serialize work per account (e.g. nonces of revocations).', partitionKey: stringKey('lockId'), ttlAttribute: TTL },
  desk: {
    purpose:
      "The desk page: sessions, used sign-in links, rate-limit counters, passkeys and their challenges, each recipient's sessions epoch, the operators. Read by key only.",
    partitionKey: stringKey('id'),
    ttlAttribute: TTL,
  },
  history: {
    purpose:
      "Each account's history for the desk page, one item per event, newest read first: alert levels fired and recovered, snoozes set and lifted (`alert#<address>`), deliveries and their outcomes (`delivery#<address>`).",
    partitionKey: stringKey('stream'),
    sortKey: stringKey('at'),
    ttlAttribute: TTL,
  },
});

/** Physical table name for a logical id under a prefix. */
export function tableName(prefix: string, id: TableId): string {
  return `${prefix}${id}`;
}
