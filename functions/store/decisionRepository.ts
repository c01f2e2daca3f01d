import * as z from 'zod';
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { decisionUnitSchema, type DecisionUnit, type UnitResult } from '../domain/decisionUnit';
import { protectiveDecisionSchema, type ProtectiveDecision } from '../domain/protectiveDecision';
import { batchGetAll } from './batchGet';
import { parseItem } from './parseItem';
import { StoreError } from './errors';
import { DECISIONS_BY_ACCOUNT_INDEX } from './tableDefinitions';
import type { RepositoryOptions } from './repositoryOptions';
import { toTtlSeconds } from './ttl';
import { DynamoRepository } from './dynamoRepository';

/** Key prefix of protective decisions in the `tokens` table (IAM scopes roles by it). */
export const DECISION_KEY_PREFIX = 'decision#';
/** Key prefix of a decision's per-delegate units (what the signer did with each delegate). */
export const DECISION_SIGNING_KEY_PREFIX = 'decision-signing#';
/** How long a decision and its units are kept (the audit trail keeps its reason for good). */
const DECISION_RETENTION_MS = 90 * 24 * 3_600_000;

const itemSchema = protectiveDecisionSchema.extend({ tokenId: z.string(), expiresAt: z.number().int().min(0) });
const unitItemSchema = z.object({ tokenId: z.string(), expiresAt: z.number().int().min(0), unit: decisionUnitSchema });

/** A decision's place in its account's list (its time, 15 digits, and its id): where the next, older page starts. */
const DECISION_POSITION = /^(\d{15})#([A-Za-z0-9_-]{16,128})$/;

function decisionPosition(decision: Pick<ProtectiveDecision, 'createdAt' | 'decisionId'>): string {
  return `${String(decision.createdAt).padStart(15, '0')}#${decision.decisionId}`;
}

/** One page of an account's decisions, newest first; `next`: where the following (older) page starts, `null` at the end. */
export interface DecisionPage {
  readonly decisions: readonly ProtectiveDecision[];
  readonly next: string | null;
}

/** What taking a delegate for signing found: it is ours now, or another state holds it (a unit being signed or done). */
export type BeginSigning = { kind: 'began' } | { kind: 'taken'; unit: DecisionUnit | null };

/**
 * Protective decisions (table `tokens`, key `decision#<id>`): written once with
 * `attribute_not_exists` and never updated, so what the signer re-checks is what the evaluator
 * decided. Beside each, the signer keeps one unit per delegate (`decision-signing#<id>#<delegate>`):
 * `signing` while an invocation holds it, `waiting` after an attempt that sent nothing for a
 * passing reason, `done` with its final result. Conditional writes make each delegate signed once
 * and settled once, whatever the queue redelivers.
 */
export class DecisionRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'tokens', options);
  }

  /** Writes `decision` if no decision has its id; `exists` otherwise (nothing is overwritten). */
  async put(decision: ProtectiveDecision): Promise<{ kind: 'written' } | { kind: 'exists' }> {
    const valid = parseItem(protectiveDecisionSchema, decision, 'decisions.put');
    const item = { ...valid, tokenId: DECISION_KEY_PREFIX + valid.decisionId, expiresAt: toTtlSeconds(valid.createdAt + DECISION_RETENTION_MS) };
    return this.conditionalPut('decisions.put', { Item: item, ConditionExpression: 'attribute_not_exists(tokenId)' }, { kind: 'written' }, () => ({
      kind: 'exists',
    }));
  }

  /** The decision (strongly consistent), or `null`. */
  async get(decisionId: string): Promise<ProtectiveDecision | null> {
    const item = await this.getLiveItem('decisions.get', { tokenId: DECISION_KEY_PREFIX + decisionId }, itemSchema);
    if (!item) return null;
    const { tokenId: _key, expiresAt: _expires, ...decision } = item;
    return decision;
  }

  /**
   * A page of `account`'s decisions, newest first, from after `after` (a page's `next`; `null`: the
   * newest): one `Query` of the `decisionsByAccount` index, eventually consistent, so a decision
   * written a moment ago may be missing.
   */
  async pageForAccount(account: string, limit: number, after: string | null): Promise<DecisionPage> {
    const start = after === null ? null : DECISION_POSITION.exec(after);
    if (start === null && after !== null) throw new StoreError('decisions.pageForAccount', 'not a decision position');
    const { live, last } = await this.pageNewestFirst(
      'decisions.pageForAccount',
      {
        IndexName: DECISIONS_BY_ACCOUNT_INDEX,
        KeyConditionExpression: '#account = :account',
        ExpressionAttributeNames: { '#account': 'account' },
        ExpressionAttributeValues: { ':account': account },
        ...(start === null ? {} : { ExclusiveStartKey: { account, createdAt: Number(start[1]), tokenId: DECISION_KEY_PREFIX + (start[2] ?? '') } }),
      },
      limit,
      (item) =>
        typeof item['tokenId'] === 'string' && item['tokenId'].startsWith(DECISION_KEY_PREFIX) ? parseItem(itemSchema, item, 'decisions.pageForAccount') : null,
    );
    return {
      decisions: live.map(({ tokenId: _key, expiresAt: _expires, ...decision }) => decision),
      next: last ? decisionPosition(last) : null,
    };
  }

  /** One delegate's unit (strongly consistent), or `null` when no attempt took it yet. */
  async unit(decisionId: string, delegate: string): Promise<DecisionUnit | null> {
    const out = await this.call('decisions.unit', () =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { tokenId: unitKey(decisionId, delegate) }, ConsistentRead: true })),
    );
    return out.Item ? parseItem(unitItemSchema, out.Item, 'decisions.unit').unit : null;
  }

  /** Every unit of `decision` there is, by delegate address as the decision names it (one `BatchGetItem` per 100). */
  async units(decision: Pick<ProtectiveDecision, 'decisionId' | 'delegates'>): Promise<Map<string, DecisionUnit>> {
    const byKey = new Map(decision.delegates.map((d) => [unitKey(decision.decisionId, d), d]));
    const items = await batchGetAll(
      this.client,
      this.table,
      [...byKey.keys()].map((tokenId) => ({ tokenId })),
      'decisions.units',
      this.options.batch,
    );
    const units = new Map<string, DecisionUnit>();
    for (const item of items) {
      const parsed = parseItem(unitItemSchema, item, 'decisions.units');
      const delegate = byKey.get(parsed.tokenId);
      if (delegate !== undefined) units.set(delegate, parsed.unit);
    }
    return units;
  }

  /**
   * Takes `delegate` of the decision for signing: allowed when no attempt took it yet, or the
   * last one is `waiting`. `taken` (with the unit found) when another invocation holds it or it is done.
   */
  async beginSigning(decisionId: string, delegate: string): Promise<BeginSigning> {
    const written = await this.writeUnit(
      'decisions.beginSigning',
      decisionId,
      delegate,
      { state: 'signing', at: this.now() },
      {
        ConditionExpression: 'attribute_not_exists(tokenId) OR #unit.#state = :waiting',
        ExpressionAttributeNames: { '#unit': 'unit', '#state': 'state' },
        ExpressionAttributeValues: { ':waiting': 'waiting' },
      },
    );
    return written ? { kind: 'began' } : { kind: 'taken', unit: await this.unit(decisionId, delegate) };
  }

  /** An attempt that took the delegate sent nothing, for a passing reason: it waits for the queue's next delivery. */
  async waitUnit(decisionId: string, delegate: string, lastFailure: string): Promise<void> {
    await this.writeUnit(
      'decisions.waitUnit',
      decisionId,
      delegate,
      { state: 'waiting', at: this.now(), lastFailure: lastFailure.slice(0, 500) },
      {
        ConditionExpression: '#unit.#state = :signing',
        ExpressionAttributeNames: { '#unit': 'unit', '#state': 'state' },
        ExpressionAttributeValues: { ':signing': 'signing' },
      },
    );
  }

  /** Records the delegate's final result, once: `already-done` when a result is already kept (which stands). */
  async finishUnit(decisionId: string, delegate: string, result: UnitResult): Promise<{ kind: 'finished' } | { kind: 'already-done' }> {
    const written = await this.writeUnit(
      'decisions.finishUnit',
      decisionId,
      delegate,
      { state: 'done', at: this.now(), result },
      {
        ConditionExpression: 'attribute_not_exists(tokenId) OR #unit.#state <> :done',
        ExpressionAttributeNames: { '#unit': 'unit', '#state': 'state' },
        ExpressionAttributeValues: { ':done': 'done' },
      },
    );
    return written ? { kind: 'finished' } : { kind: 'already-done' };
  }

  private async writeUnit(
    operation: string,
    decisionId: string,
    delegate: string,
    unit: DecisionUnit,
    condition: { ConditionExpression: string; ExpressionAttributeNames: Record<string, string>; ExpressionAttributeValues: Record<string, string> },
  ): Promise<boolean> {
    const item = parseItem(
      unitItemSchema,
      { tokenId: unitKey(decisionId, delegate), expiresAt: toTtlSeconds(this.now() + DECISION_RETENTION_MS), unit },
      operation,
    );
    return this.conditionalPut(operation, { Item: item, ...condition }, true, () => false);
  }
}

function unitKey(decisionId: string, delegate: string): string {
  return `${DECISION_SIGNING_KEY_PREFIX}${decisionId}#${delegate}`;
}
