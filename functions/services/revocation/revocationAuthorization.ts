import { addressSchema } from '../../domain/address';
import type { ConsumedToken, TokenRepository } from '../../store/tokenRepository';
import type { LinkRevocationRequest as RevocationRequest } from '../../domain/revocationOutcome';

/** The ports of {@link authorizeRevocation}. */
export interface RevocationAuthorizationDeps {
  readonly tokens: Pick<TokenRepository, 'get' | 'markSigned'>;
  readonly now: () => number;
}

/**
 * How long after the page consumed a token the signer still accepts it. The page invokes the
 * signer right after consuming (a throttled invoke is retried for about 3 s); a token consumed
 * earlier and never signed is a burned link, and nobody may replay it by invoking the signer.
 */
export const MAX_CONSUMED_TOKEN_AGE_MS = 60_000;

/** Whether a signing may go ahead; a refusal's `reason` is for the audit trail (it holds no secret). */
export type RevocationAuthorization =
  /** `batch`: the revoke-all link the token is a unit of (its result is mailed for the batch), else `null`. */
  { kind: 'authorized'; batch: string | null } | { kind: 'refused'; reason: string };

/**
 * Checks that `request` is what a revocation link the page has just consumed asked for: a live
 * consumed token with that id, purpose `revoke`, the same account and delegate (compared
 * checksummed), consumed at most {@link MAX_CONSUMED_TOKEN_AGE_MS} ago, not yet used for a
 * signing. Then marks the token used by the signer, so the
 * same consumed token never authorizes two signings (the page's release deletes the mark with the
 * record, so a retry through the page starts afresh).
 */
export async function authorizeRevocation(deps: RevocationAuthorizationDeps, request: RevocationRequest): Promise<RevocationAuthorization> {
  const token = await deps.tokens.get(request.tokenId, 'revoke');
  if (token === null) return { kind: 'refused', reason: 'no consumed revocation link has this token id' };
  const mismatch = mismatchOf(token, request, deps.now());
  if (mismatch) return { kind: 'refused', reason: mismatch };
  const marked = await deps.tokens.markSigned(request.tokenId, token.consumedAt);
  if (marked.kind === 'already-signed') return { kind: 'refused', reason: 'the link was already used for a signing' };
  if (marked.kind === 'not-consumed') return { kind: 'refused', reason: 'the link was released or consumed again meanwhile' };
  return { kind: 'authorized', batch: token.batch };
}

function mismatchOf(token: ConsumedToken, request: RevocationRequest, now: number): string | null {
  if (token.purpose !== 'revoke') return `the token was consumed for ${token.purpose}, not revoke`;
  if (checksummed(token.account) !== request.account) return 'the link was for another account';
  if (token.delegate === null || checksummed(token.delegate) !== request.delegate) return 'the link was for another delegate';
  if (token.expiresAt <= now) return 'the link has expired';
  if (now - token.consumedAt > MAX_CONSUMED_TOKEN_AGE_MS)
    return `the link was consumed ${Math.round((now - token.consumedAt) / 1000)} s ago, more than ${MAX_CONSUMED_TOKEN_AGE_MS / 1000} s before this signing`;
  if (token.signedAt !== null) return 'the link was already used for a signing';
  return null;
}

function checksummed(address: string): string | null {
  const parsed = addressSchema.safeParse(address);
  return parsed.success ? parsed.data : null;
}
