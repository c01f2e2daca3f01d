import * as z from 'zod';
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Address } from '../domain/address';
import type { ProtectiveRule } from '../domain/protectiveAction';
import { CAP_WINDOW_MS } from '../domain/protectiveDecision';
import {
  breakerAt,
  breakerStateSchema,
  capStateSchema,
  countFiring,
  reserveCap,
  settleCap,
  type BreakerCount,
  type BreakerEntry,
  type BreakerState,
  type CapReservation,
  type CapState,
} from '../domain/protectionCounts';
import { DynamoRepository } from './dynamoRepository';
import { StoreError } from './errors';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';
import { toTtlSeconds } from './ttl';

/** Key prefix of an account's cap of one rule in the `tokens` table: `protection-cap#<rule>#<account>` (IAM scopes the signer to it). */
export const CAP_KEY_PREFIX = 'protection-cap#';
/** Key prefix of a rule's stage-wide breaker in the `tokens` table: `protection-breaker#<rule>`. */
export const BREAKER_KEY_PREFIX = 'protection-breaker#';

const capKeyOf = (rule: ProtectiveRule, account: string): string => `${CAP_KEY_PREFIX}${rule}#${account.toLowerCase()}`;
const breakerKeyOf = (rule: ProtectiveRule): string => `${BREAKER_KEY_PREFIX}${rule}`;

const versioned = <S extends z.ZodType>(state: S) =>
  z.object({ tokenId: z.string(), version: z.number().int().min(1), state, expiresAt: z.number().int().min(0).optional() });
const breakerItemSchema = versioned(breakerStateSchema);
const capItemSchema = versioned(capStateSchema);

/**
 * How often a compare-and-set is tried before giving up. Each concurrent writer can make another
 * lose at most once per write, so this bounds the writers counting the same item at once (the
 * signer's reserved concurrency is 2 by default).
 */
const MAX_ATTEMPTS = 32;

/**
 * The caps and the breaker (table `tokens`, written by the signer alone, at signing time). A
 * rule's breaker is one item holding the firings of the rolling hour; an account's cap of a rule
 * is one item holding the slots of the rolling day. Each is changed by compare-and-set on its
 * `version` (a conditional `PutItem`), so concurrent signings count every firing once, in
 * whatever order they come, and exactly one of them opens the breaker.
 */
export class ProtectionLedgerRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'tokens', options);
  }

  /** Counts a firing against the breaker of `rule` at `now` (see `countFiring`). */
  async countFiring(rule: ProtectiveRule, entry: BreakerEntry, now: number, maxAccounts: number): Promise<BreakerCount> {
    let count: BreakerCount | undefined;
    await this.change(breakerKeyOf(rule), breakerItemSchema, 'protection.countFiring', (state) => {
      const counted = countFiring(state, entry, now, maxAccounts);
      count = counted.count;
      return { next: counted.next };
    });
    return count as BreakerCount;
  }

  /** The breaker of `rule` as it stands at `now`. */
  async breaker(rule: ProtectiveRule, now: number, maxAccounts: number): Promise<BreakerCount> {
    return breakerAt((await this.read(breakerKeyOf(rule), breakerItemSchema, 'protection.breaker'))?.state ?? null, now, maxAccounts);
  }

  /** Reserves the slot `key` in `account`'s cap of `rule` at `now` (see `reserveCap`). */
  async reserveCap(rule: ProtectiveRule, account: Address, slot: { key: string; decisionId: string }, now: number): Promise<CapReservation> {
    let reservation: CapReservation | undefined;
    await this.change(capKeyOf(rule, account), capItemSchema, 'protection.reserveCap', (state) => {
      const reserved = reserveCap(state, rule, slot, now);
      reservation = reserved.reservation;
      return { next: reserved.next, expiresAt: now + CAP_WINDOW_MS };
    });
    return reservation as CapReservation;
  }

  /** Keeps the slot `key` as spent (`sent`) or gives it back (see `settleCap`). */
  async settleCap(rule: ProtectiveRule, account: Address, key: string, sent: boolean): Promise<void> {
    await this.change(capKeyOf(rule, account), capItemSchema, 'protection.settleCap', (state) => ({ next: settleCap(state, key, sent) }));
  }

  /** `account`'s cap of `rule` as stored (slots of the last day, and older ones not yet pruned). */
  async cap(rule: ProtectiveRule, account: string): Promise<CapState | null> {
    return (await this.read(capKeyOf(rule, account), capItemSchema, 'protection.cap'))?.state ?? null;
  }

  private async read<S extends z.ZodType>(tokenId: string, schema: ReturnType<typeof versioned<S>>, operation: string) {
    const out = await this.call(operation, () => this.client.send(new GetCommand({ TableName: this.table, Key: { tokenId }, ConsistentRead: true })));
    return out.Item ? parseItem(schema, out.Item, operation) : null;
  }

  /** Reads the item, writes what `decide` makes of its state (`next: null`: nothing) if its version is unchanged, and tries again on a conflict. */
  private async change<T extends BreakerState | CapState>(
    tokenId: string,
    schema: z.ZodType<{ tokenId: string; version: number; state: T; expiresAt?: number | undefined }>,
    operation: string,
    decide: (state: T | null) => { next: T | null; expiresAt?: number },
  ): Promise<void> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const out = await this.call(operation, () => this.client.send(new GetCommand({ TableName: this.table, Key: { tokenId }, ConsistentRead: true })));
      const stored = out.Item ? parseItem(schema, out.Item, operation) : null;
      const { next, expiresAt } = decide(stored?.state ?? null);
      if (next === null) return;
      // A change that names no expiry keeps the stored one.
      const ttl = expiresAt === undefined ? stored?.expiresAt : toTtlSeconds(expiresAt);
      const item = { tokenId, version: (stored?.version ?? 0) + 1, state: next, ...(ttl === undefined ? {} : { expiresAt: ttl }) };
      const written = await this.conditionalPut(
        operation,
        stored === null
          ? { Item: item, ConditionExpression: 'attribute_not_exists(tokenId)' }
          : {
              Item: item,
              ConditionExpression: '#version = :version',
              ExpressionAttributeNames: { '#version': 'version' },
              ExpressionAttributeValues: { ':version': stored.version },
            },
        true,
        () => false,
      );
      if (written) return;
    }
    throw new StoreError(operation, `${tokenId} kept changing under ${MAX_ATTEMPTS} attempts`, { retryable: true });
  }
}
