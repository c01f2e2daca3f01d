import * as z from 'zod';
import { addressSchema } from './address';
import { linkRefusalSchema } from './linkRefusal';
import { decisionIdSchema } from './protectiveDecision';

/** Longest signed link token a request may carry (as `MAX_TOKEN_LENGTH` of the link format). */
const MAX_LINK_TOKEN_LENGTH = 2_048;

/** A person's click: exactly these four fields, nothing else. */
export const linkRevocationRequestSchema = z.strictObject({
  account: addressSchema,
  delegate: addressSchema,
  /**
   * Id of the single-use token consumed for this signing (audit trail and notify event id): the
   * revoke link's own id, or for one delegate of a revoke-all batch its unit id (`revokeAllUnitId`).
   */
  tokenId: z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, '16 to 128 base64url characters'),
  /**
   * The signed link the person confirmed: the revoke link, or the revoke-all link of the batch.
   * The signer verifies it with the purpose's public key itself; it is a capability, never logged.
   */
  token: z.string().min(1).max(MAX_LINK_TOKEN_LENGTH),
});
/** A revocation a person asked for through a link. */
export type LinkRevocationRequest = z.infer<typeof linkRevocationRequestSchema>;

/** An automatic action: one delegate of a protective decision the signer re-checks (`domain/decisionCheck`). */
export const decisionRevocationRequestSchema = z.strictObject({
  account: addressSchema,
  delegate: addressSchema,
  decisionId: decisionIdSchema,
});
/** A revocation an automatic rule decided. */
export type DecisionRevocationRequest = z.infer<typeof decisionRevocationRequestSchema>;

/** What the signing side is asked to do: a link's `{account, delegate, tokenId, token}` or a decision's `{account, delegate, decisionId}`. */
export const revocationRequestSchema = z.union([linkRevocationRequestSchema, decisionRevocationRequestSchema]);
/** A parsed revocation request (addresses checksummed). */
export type RevocationRequest = z.infer<typeof revocationRequestSchema>;

/** Whether a request is an automatic action's. */
export function isDecisionRequest(request: RevocationRequest): request is DecisionRevocationRequest {
  return 'decisionId' in request;
}

const nonce = z.number().int().min(0);
const signature = z.string().regex(/^0x[0-9a-fA-F]+$/);

/**
 * Every way a revocation can end, as a value. `sent` says whether a transaction went to the
 * chain: when it did not, trying again later is safe and the link may be reused.
 * - `revoked`: submitted, and the delegate is no longer listed;
 * - `already-revoked`: the delegate was not listed to begin with (success, nothing sent);
 * - `rejected`: the chain refused the transaction (`message` is its reason);
 * - `unconfirmed`: sent, but the delegate is still listed or the result could not be read;
 * - `chain-unreachable`: the chain could not be reached before anything was sent;
 * - `signer-unavailable`: the owner key could not sign right now (e.g. KMS unreachable);
 * - `busy`: another revocation of the account held the lease for too long;
 * - `audit-unavailable`: the audit record of the signed transaction could not be written, so it
 *   was not submitted (every transaction sent is audited first);
 * - `not-configured`: the account has no usable signer (`reason` says why);
 * - `not-tracked`: the account is not tracked;
 * - `not-authorized`: the request does not match a revocation link the page has just consumed
 *   (no valid signed link, unknown, released, expired or already used token; other account or
 *   delegate; a chat's link its channel withdrew), or a decision that no longer holds. `refusal`:
 *   why, when the link itself verified and the refusal is about its use or its channel (absent
 *   for a link that does not verify or match, for a decision, and in older records).
 */
export const revocationOutcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('revoked'), sent: z.literal(true), nonce, transactionSignature: signature }),
  z.object({ kind: z.literal('already-revoked'), sent: z.literal(false) }),
  z.object({ kind: z.literal('rejected'), sent: z.literal(true), nonce, transactionSignature: signature, message: z.string() }),
  z.object({ kind: z.literal('unconfirmed'), sent: z.literal(true), nonce, transactionSignature: signature, message: z.string() }),
  z.object({ kind: z.literal('chain-unreachable'), sent: z.literal(false), message: z.string() }),
  z.object({ kind: z.literal('signer-unavailable'), sent: z.literal(false), message: z.string() }),
  z.object({ kind: z.literal('busy'), sent: z.literal(false) }),
  z.object({ kind: z.literal('audit-unavailable'), sent: z.literal(false) }),
  z.object({ kind: z.literal('not-configured'), sent: z.literal(false), reason: z.string() }),
  z.object({ kind: z.literal('not-tracked'), sent: z.literal(false) }),
  z.object({ kind: z.literal('not-authorized'), sent: z.literal(false), refusal: linkRefusalSchema.optional() }),
]);
export type RevocationOutcome = z.infer<typeof revocationOutcomeSchema>;
export type RevocationOutcomeKind = RevocationOutcome['kind'];

/**
 * Whether the link that asked for this revocation should work again: nothing was sent and the
 * delegate was not found gone, so the same request may succeed later (chain or signer back,
 * lease free, signer configured, account tracked). A refused (`not-authorized`) request keeps
 * its link used.
 */
export function linkReusableAfter(outcome: RevocationOutcome): boolean {
  return !outcome.sent && outcome.kind !== 'already-revoked' && outcome.kind !== 'not-authorized';
}
