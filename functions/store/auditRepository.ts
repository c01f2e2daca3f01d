import * as z from 'zod';
import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseItem } from './parseItem';
import { DynamoRepository } from './dynamoRepository';
import type { RepositoryOptions } from './repositoryOptions';

const auditRecordSchema = z.object({
  /**
   * `attempt`: an attempt that signed nothing (refused, nothing to do, chain or signer down);
   * `intent`: written before a signed transaction is submitted; `outcome`: what became of that
   * transaction, written afterwards as a separate item. Records written before this field existed
   * read as `attempt`.
   */
  kind: z.enum(['attempt', 'intent', 'outcome']).default('attempt'),
  /** Unique per record within the account and time: the link token id, or the transaction hash. */
  id: z.string().min(1),
  address: z.string().min(1),
  /** When, epoch ms. An `outcome` is keyed under its intent's time (`intentAt`) and this is when it was written. */
  at: z.number().int().min(0),
  /** Who asked, e.g. `link:<tokenId>` or `cli`. */
  actor: z.string().min(1),
  /** What, e.g. `revoke-delegate`. */
  action: z.string().min(1),
  /** The result (`revoked`, `rejected`, ...); `submitting` for an intent. */
  outcome: z.string().min(1),
  delegate: z.string().optional(),
  /** The link token that authorized the attempt. */
  tokenId: z.string().optional(),
  nonce: z.number().int().min(0).optional(),
  /** Id of the signed transaction (see `transactionHash`): links an intent and its outcome. */
  txHash: z.string().optional(),
  txSignature: z.string().optional(),
  /** An outcome's intent time, epoch ms. */
  intentAt: z.number().int().min(0).optional(),
  /** Why an automatic action was taken (the decision's reason, e.g. `kill-switch: drawdown 30.4% ≥ 30% at …`); absent for a click. */
  reason: z.string().optional(),
  /** Plain words, the same the owner is shown (or the chain's own rejection message). */
  message: z.string().optional(),
  /** Internal details for operators (errors, request labels with URLs redacted); never shown on a page or in an email. */
  detail: z.string().optional(),
});

/** One audited record (an attempt, or one signed transaction's intent or outcome). */
export type AuditRecord = z.output<typeof auditRecordSchema>;
/** What {@link AuditRepository.append} takes: `kind` defaults to `attempt`. */
export type AuditRecordInput = z.input<typeof auditRecordSchema>;

/** What is known of a signed transaction before it is submitted. */
export interface TransactionIntent {
  readonly address: string;
  readonly delegate: string;
  readonly tokenId: string;
  readonly actor: string;
  readonly action: string;
  readonly nonce: number;
  readonly txHash: string;
  readonly txSignature: string;
  /** Why an automatic action was taken; absent for a click. */
  readonly reason?: string;
  /** When the intent was written, epoch ms. */
  readonly at: number;
}

/** What became of a submitted transaction. */
export interface TransactionOutcome {
  readonly outcome: string;
  readonly at: number;
  readonly message?: string;
  readonly detail?: string;
}

/**
 * Audit trail per account (table `audit`, key `address` + `at`, a string that sorts by time).
 * Every write is a conditional put (`attribute_not_exists`), never an update or a delete, so the
 * signer's role needs `dynamodb:PutItem` only and no record is ever overwritten:
 * - an attempt that signed nothing: `at` = `<ISO time>#<token id>`;
 * - a signed transaction: its intent `<ISO time>#<tx hash>#intent` before it is submitted, and its
 *   outcome `<same ISO time>#<tx hash>#outcome` afterwards, so the two sort next to each other.
 *   An intent without an outcome is a transaction whose result was never recorded (the function
 *   stopped, or the outcome write failed): check the chain.
 */
export class AuditRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'audit', options);
  }

  /** Appends an attempt record; the same id at the same time twice is stored once. */
  async append(record: AuditRecordInput): Promise<{ kind: 'appended' } | { kind: 'exists' }> {
    const valid = parseItem(auditRecordSchema, record, 'audit.append');
    return this.put('audit.append', `${iso(valid.at)}#${valid.id}`, valid);
  }

  /** Records a signed transaction before it is submitted; `exists` if this transaction already has one. */
  async appendIntent(intent: TransactionIntent): Promise<{ kind: 'appended' } | { kind: 'exists' }> {
    const valid = parseItem(auditRecordSchema, { kind: 'intent', id: intent.txHash, outcome: 'submitting', ...intent }, 'audit.appendIntent');
    return this.put('audit.appendIntent', intentKey(intent), valid);
  }

  /** Records what became of the transaction of `intent`, as a second item next to it; `exists` if already recorded. */
  async appendOutcome(intent: TransactionIntent, outcome: TransactionOutcome): Promise<{ kind: 'appended' } | { kind: 'exists' }> {
    const { at: _intentAt, ...shared } = intent;
    const valid = parseItem(auditRecordSchema, { ...shared, kind: 'outcome', id: intent.txHash, intentAt: intent.at, ...outcome }, 'audit.appendOutcome');
    return this.put('audit.appendOutcome', intentKey(intent).replace(/#intent$/, '#outcome'), valid);
  }

  /** The newest `limit` records of an account, newest first (an outcome just before its intent). */
  async listForAccount(address: string, limit: number): Promise<AuditRecord[]> {
    const out = await this.call('audit.listForAccount', () =>
      this.client.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'address = :address',
          ExpressionAttributeValues: { ':address': address },
          ScanIndexForward: false,
          Limit: Math.max(1, limit),
        }),
      ),
    );
    return (out.Items ?? []).map((item) => {
      const { atMs, at: _sortKey, ...rest } = item as Record<string, unknown>;
      return parseItem(auditRecordSchema, { ...rest, at: atMs }, 'audit.listForAccount');
    });
  }

  private async put(operation: string, sortKey: string, record: AuditRecord): Promise<{ kind: 'appended' } | { kind: 'exists' }> {
    // The table's sort key is named `at`; the record's own `at` (ms) is kept as `atMs`.
    const { at, ...rest } = record;
    const item = { ...rest, at: sortKey, atMs: at };
    return this.conditionalPut(
      operation,
      { Item: item, ConditionExpression: 'attribute_not_exists(#at)', ExpressionAttributeNames: { '#at': 'at' } },
      { kind: 'appended' },
      () => ({ kind: 'exists' }),
    );
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function intentKey(intent: Pick<TransactionIntent, 'at' | 'txHash'>): string {
  return `${iso(intent.at)}#${intent.txHash}#intent`;
}
