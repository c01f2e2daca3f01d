import * as z from 'zod';
import { DeleteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';
import { itemOfFailedCondition } from './errors';
import { toTtlSeconds } from './ttl';
import { DynamoRepository } from './dynamoRepository';
import { revocationOutcomeSchema, type RevocationOutcome } from '../domain/revocationOutcome';
import type { LinkRefusal } from '../domain/linkRefusal';

/** The purposes of single-use links; each is a key prefix of its own (see {@link tokenKey}). */
export const TOKEN_PURPOSES = ['revoke', 'snooze'] as const;
export type TokenPurpose = (typeof TOKEN_PURPOSES)[number];

/**
 * The table key of a token: `<purpose>#<token id>`. The purpose leads, so IAM can confine a role
 * to one purpose's items (`dynamodb:LeadingKeys` `snooze#*`): the preferences page cannot create,
 * read or delete a revoke token, nor the revocation functions a snooze token.
 */
export function tokenKey(purpose: TokenPurpose, tokenId: string): string {
  return `${purpose}#${tokenId}`;
}

/**
 * Every attribute a consume puts (the key included, and `tokenId`, which its condition reads): all
 * the link pages and the revoke-all worker may name when they write a token (IAM `dynamodb:Attributes`
 * on their `PutItem`, and the test of what their code sends). Never one of {@link SIGNING_TOKEN_ATTRIBUTES}.
 */
export const CONSUMED_TOKEN_ATTRIBUTES = ['tokenId', 'purpose', 'account', 'delegate', 'batch', 'consumedAt', 'expiresAt'] as const;

/**
 * What only the signing side writes on a revoke token (`markSigned`, `recordRefusal`,
 * `recordOutcome`): that it signed, and how the revocation ended. The page of a used link, the
 * emails and the desk tell the owner from these, so no role that parses requests may write them.
 */
export const SIGNING_TOKEN_ATTRIBUTES = ['signedAt', 'outcome', 'outcomeAt'] as const;

type ConsumedTokenItem = { readonly [K in (typeof CONSUMED_TOKEN_ATTRIBUTES)[number]]?: string | number };

/** What a consumed token was for. */
export interface TokenUse {
  readonly purpose: TokenPurpose;
  readonly account: string;
  /** The delegate a `revoke` token is for (required for that purpose). */
  readonly delegate?: string;
  /** The token's own expiry, epoch ms; the record expires with it (TTL). */
  readonly expiresAt: number;
  /** The revoke-all link (token id) this is one delegate's unit of; its result is mailed for the whole batch. */
  readonly batch?: string;
}

/** A consumed token as stored. */
export interface ConsumedToken {
  readonly tokenId: string;
  readonly purpose: TokenPurpose;
  readonly account: string;
  /** `null` when the token names no delegate (purposes other than `revoke`, older records). */
  readonly delegate: string | null;
  readonly consumedAt: number;
  /** The token's expiry, epoch ms, to the second (rounded up). */
  readonly expiresAt: number;
  /** When the signing side used it (see {@link TokenRepository.markSigned}); `null` before. */
  readonly signedAt: number | null;
  /** The revoke-all batch the token is a unit of; `null` for a one-delegate link. */
  readonly batch: string | null;
  /** How the revocation it authorized ended, and when (see {@link TokenRepository.recordOutcome}); `null` before, or for other purposes. */
  readonly outcome: { readonly result: RevocationOutcome; readonly at: number } | null;
}

const purposeSchema = z.enum(TOKEN_PURPOSES);

const useSchema = z
  .object({
    purpose: purposeSchema,
    account: z.string().min(1),
    delegate: z.string().min(1).optional(),
    expiresAt: z.number().int().min(0),
    batch: z.string().min(1).optional(),
  })
  .refine((use) => use.purpose !== 'revoke' || use.delegate !== undefined, { message: 'a revoke token names its delegate', path: ['delegate'] });

const itemSchema = z.object({
  /** `<purpose>#<token id>`. */
  tokenId: z.string().min(1),
  purpose: purposeSchema,
  account: z.string().min(1),
  delegate: z.string().min(1).optional(),
  consumedAt: z.number().int().min(0),
  /** TTL, epoch seconds. */
  expiresAt: z.number().int().min(0),
  signedAt: z.number().int().min(0).optional(),
  batch: z.string().min(1).optional(),
  outcome: revocationOutcomeSchema.optional(),
  outcomeAt: z.number().int().min(0).optional(),
});

/**
 * Single-use link tokens (table `tokens`, key `tokenId` = `<purpose>#<token id>`): consuming is
 * one conditional write. Every method names the purpose, so each works only on that purpose's items.
 */
export class TokenRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'tokens', options);
  }

  /** Marks the token used, unless it already was (then says when). */
  async consume(tokenId: string, use: TokenUse): Promise<{ kind: 'consumed' } | { kind: 'already-used'; consumedAt: number }> {
    const valid = parseItem(useSchema, use, 'tokens.consume');
    return this.conditionalPut(
      'tokens.consume',
      {
        Item: {
          tokenId: tokenKey(valid.purpose, tokenId),
          purpose: valid.purpose,
          account: valid.account,
          ...(valid.delegate === undefined ? {} : { delegate: valid.delegate }),
          ...(valid.batch === undefined ? {} : { batch: valid.batch }),
          consumedAt: this.now(),
          expiresAt: toTtlSeconds(valid.expiresAt),
        } satisfies ConsumedTokenItem,
        ConditionExpression: 'attribute_not_exists(tokenId)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
      { kind: 'consumed' } as const,
      (error) => ({ kind: 'already-used', consumedAt: Number(itemOfFailedCondition(error)?.['consumedAt'] ?? 0) }) as const,
    );
  }

  /** The token consumed for `purpose` (strongly consistent read); `null` if it was never consumed for it, was released, or has expired. */
  async get(tokenId: string, purpose: TokenPurpose): Promise<ConsumedToken | null> {
    const key = tokenKey(purpose, tokenId);
    const item = await this.getLiveItem('tokens.get', { tokenId: key }, itemSchema);
    if (!item) return null;
    return {
      tokenId,
      purpose: item.purpose,
      account: item.account,
      delegate: item.delegate ?? null,
      consumedAt: item.consumedAt,
      expiresAt: item.expiresAt * 1000,
      signedAt: item.signedAt ?? null,
      batch: item.batch ?? null,
      outcome: item.outcome === undefined || item.outcomeAt === undefined ? null : { result: item.outcome, at: item.outcomeAt },
    };
  }

  /**
   * Records that the signing side used the revoke token consumed at `consumedAt`, once: a second call,
   * a call for a token that holds a refusal (`refused`, see {@link recordRefusal}), or a call for a
   * record that was released (or released and consumed again since), changes nothing and says so.
   * Releasing the token deletes the mark with the record.
   */
  async markSigned(
    tokenId: string,
    consumedAt: number,
  ): Promise<{ kind: 'marked' } | { kind: 'already-signed'; signedAt: number } | { kind: 'refused' } | { kind: 'not-consumed' }> {
    return this.conditionalUpdate(
      'tokens.markSigned',
      {
        Key: { tokenId: tokenKey('revoke', tokenId) },
        UpdateExpression: 'SET signedAt = :now',
        ConditionExpression: 'attribute_exists(tokenId) AND consumedAt = :consumedAt AND attribute_not_exists(signedAt) AND attribute_not_exists(outcome)',
        ExpressionAttributeValues: { ':now': this.now(), ':consumedAt': consumedAt },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
      { kind: 'marked' } as const,
      (error) => {
        const found = itemOfFailedCondition(error);
        const signedAt = found?.['signedAt'];
        if (found?.['consumedAt'] !== consumedAt) return { kind: 'not-consumed' } as const;
        if (typeof signedAt === 'number') return { kind: 'already-signed', signedAt } as const;
        return found['outcome'] === undefined ? ({ kind: 'not-consumed' } as const) : ({ kind: 'refused' } as const);
      },
    );
  }

  /**
   * Keeps on the revoke token consumed at `consumedAt` that the signing side refused it (`refusal`
   * says why), so the used link's page says so. Only as the token's first outcome: a token signed
   * or already holding an outcome keeps it (`kept`), as does one released or consumed again since.
   * A token holding a refusal is never marked signed afterwards.
   */
  async recordRefusal(tokenId: string, consumedAt: number, refusal: LinkRefusal): Promise<{ kind: 'recorded' } | { kind: 'kept' }> {
    const outcome = parseItem(revocationOutcomeSchema, { kind: 'not-authorized', sent: false, refusal }, 'tokens.recordRefusal');
    return this.conditionalUpdate(
      'tokens.recordRefusal',
      {
        Key: { tokenId: tokenKey('revoke', tokenId) },
        UpdateExpression: 'SET outcome = :outcome, outcomeAt = :now',
        ConditionExpression: 'attribute_exists(tokenId) AND consumedAt = :consumedAt AND attribute_not_exists(signedAt) AND attribute_not_exists(outcome)',
        ExpressionAttributeValues: { ':outcome': outcome, ':now': this.now(), ':consumedAt': consumedAt },
      },
      { kind: 'recorded' } as const,
      () => ({ kind: 'kept' }) as const,
    );
  }

  /**
   * Keeps on a consumed revoke token how the revocation it authorized ended, so the link's page
   * can say at once what happened (one `GetItem`, no audit read). Only on a token still consumed;
   * a later outcome replaces an earlier one.
   */
  async recordOutcome(tokenId: string, outcome: RevocationOutcome): Promise<{ kind: 'recorded' } | { kind: 'not-consumed' }> {
    const valid = parseItem(revocationOutcomeSchema, outcome, 'tokens.recordOutcome');
    return this.conditionalUpdate(
      'tokens.recordOutcome',
      {
        Key: { tokenId: tokenKey('revoke', tokenId) },
        UpdateExpression: 'SET outcome = :outcome, outcomeAt = :now',
        ConditionExpression: 'attribute_exists(tokenId)',
        ExpressionAttributeValues: { ':outcome': valid, ':now': this.now() },
      },
      { kind: 'recorded' } as const,
      () => ({ kind: 'not-consumed' }) as const,
    );
  }

  /** Makes a token consumed for `purpose` usable again (e.g. nothing was sent to the chain); the next consume starts afresh. */
  async release(tokenId: string, purpose: TokenPurpose): Promise<void> {
    await this.call('tokens.release', () => this.client.send(new DeleteCommand({ TableName: this.table, Key: { tokenId: tokenKey(purpose, tokenId) } })));
  }
}
