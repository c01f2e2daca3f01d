import * as z from 'zod';
import { DeleteCommand, GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { protectiveDecisionSchema, type ProtectiveDecision } from '../domain/protectiveDecision';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';
import { isLive, toTtlSeconds } from './ttl';
import { DynamoRepository } from './dynamoRepository';

/** Key prefix of protective decisions in the `tokens` table (IAM scopes roles by it). */
export const DECISION_KEY_PREFIX = 'decision#';
/** Key prefix of a decision's per-delegate signing marks. */
export const DECISION_SIGNING_KEY_PREFIX = 'decision-signing#';
/** How long a decision is kept (the audit trail keeps its reason for good). */
const DECISION_RETENTION_MS = 90 * 24 * 3_600_000;

const itemSchema = protectiveDecisionSchema.extend({ tokenId: z.string(), expiresAt: z.number().int().min(0) });

/**
 * Protective decisions (table `tokens`, key `decision#<id>`): written once with
 * `attribute_not_exists` and never updated, so what the signer re-checks is what the evaluator
 * decided. Each delegate's signing is marked once (`decision-signing#<id>#<delegate>`), so a
 * redelivered job never signs a delegate twice; a signing that sent nothing releases its mark.
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
    const out = await this.call('decisions.get', () =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { tokenId: DECISION_KEY_PREFIX + decisionId }, ConsistentRead: true })),
    );
    if (!out.Item) return null;
    const { tokenId: _key, expiresAt, ...decision } = parseItem(itemSchema, out.Item, 'decisions.get');
    return isLive(expiresAt, this.now()) ? decision : null;
  }

  /** Marks `delegate` of the decision as being signed, once; `already-marked` when a signing of it already began. */
  async markSigning(decisionId: string, delegate: string): Promise<{ kind: 'marked' } | { kind: 'already-marked' }> {
    const now = this.now();
    const item = { tokenId: signingKey(decisionId, delegate), at: now, expiresAt: toTtlSeconds(now + DECISION_RETENTION_MS) };
    return this.conditionalPut('decisions.markSigning', { Item: item, ConditionExpression: 'attribute_not_exists(tokenId)' }, { kind: 'marked' }, () => ({
      kind: 'already-marked',
    }));
  }

  /** Removes the mark of a signing that sent nothing, so the delegate may be tried again. */
  async releaseSigning(decisionId: string, delegate: string): Promise<void> {
    await this.call('decisions.releaseSigning', () =>
      this.client.send(new DeleteCommand({ TableName: this.table, Key: { tokenId: signingKey(decisionId, delegate) } })),
    );
  }
}

function signingKey(decisionId: string, delegate: string): string {
  return `${DECISION_SIGNING_KEY_PREFIX}${decisionId}#${delegate}`;
}
