import { addressSchema } from '../../domain/address';
import { voidedChannelLink } from '../../domain/channelLinkEpoch';
import type { LinkRevocationRequest as RevocationRequest } from '../../domain/revocationOutcome';
import { revokeAllUnitId } from '../../domain/revokeAllUnit';
import type { LinkRefusal } from '../../domain/linkRefusal';
import type { LinkClaimsReader } from '../../links/linkReader';
import type { ChannelsRepository } from '../../store/channelsRepository';
import type { ConsumedToken, TokenRepository } from '../../store/tokenRepository';

/** The ports of {@link authorizeRevocation}. */
export interface RevocationAuthorizationDeps {
  readonly tokens: Pick<TokenRepository, 'get' | 'markSigned'>;
  /** Verifies revoke and revoke-all links with the published public keys of those purposes: it cannot make one. */
  readonly links: Pick<LinkClaimsReader, 'read'>;
  /** The channel a chat's link names: its link epoch and creation void the link (`voidedChannelLink`). */
  readonly channels: Pick<ChannelsRepository, 'get'>;
  readonly now: () => number;
}

/**
 * How long after the page consumed a token the signer still accepts it. The page invokes the
 * signer right after consuming (a throttled invoke is retried for about 3 s); a token consumed
 * earlier and never signed is a burned link, and nobody may replay it by invoking the signer.
 */
export const MAX_CONSUMED_TOKEN_AGE_MS = 60_000;

/**
 * Whether a signing may go ahead; a refusal's `reason` is for the audit trail (it holds no secret).
 * `kept`: when the link itself verified and matched the consumed token, and the refusal is about
 * that token's use or the link's channel, why (for the link's page) and when the token was
 * consumed (the refusal is kept on that very token only); `null` otherwise.
 */
export type RevocationAuthorization =
  /** `batch`: the revoke-all link the token is a unit of (its result is mailed for the batch), else `null`. */
  { kind: 'authorized'; batch: string | null } | { kind: 'refused'; reason: string; kept: { refusal: LinkRefusal; consumedAt: number } | null };

/** What a verified link says the request may do: its batch (a revoke-all link's token id, else `null`) and the channel it was posted to. */
interface SignedLink {
  readonly batch: string | null;
  readonly channel: string | undefined;
  readonly issuedAt: number | undefined;
}

/**
 * Checks that `request` is what a revocation link the page has just consumed asked for. First the
 * link itself, with the purpose's public key and nothing a less-trusted function wrote: a revoke
 * link for this account and delegate whose id is the request's, or the revoke-all link of this
 * account whose unit for this delegate (`revokeAllUnitId`) is the request's; not expired. Then the
 * consumed record: a live token with that id, purpose `revoke`, the same account, delegate and
 * batch (compared checksummed). Then its use: for a link posted to a channel, not withdrawn by it;
 * consumed at most {@link MAX_CONSUMED_TOKEN_AGE_MS} ago, not yet used for a signing (a refusal
 * of these says why in `kept`). Then marks the token used by the signer, so the same consumed
 * token never authorizes two signings (the page's release deletes the mark with the record, so a
 * retry through the page starts afresh).
 */
export async function authorizeRevocation(deps: RevocationAuthorizationDeps, request: RevocationRequest): Promise<RevocationAuthorization> {
  const now = deps.now();
  const link = signedLinkOf(deps, request, now);
  if (typeof link === 'string') return { kind: 'refused', reason: link, kept: null };
  const token = await deps.tokens.get(request.tokenId, 'revoke');
  if (token === null) return { kind: 'refused', reason: 'no consumed revocation link has this token id', kept: null };
  const mismatch = mismatchOf(token, request, link.batch);
  if (mismatch) return { kind: 'refused', reason: mismatch, kept: null };
  const refused = (refusal: LinkRefusal, reason: string): RevocationAuthorization => ({
    kind: 'refused',
    reason,
    kept: { refusal, consumedAt: token.consumedAt },
  });
  if (link.channel !== undefined) {
    const voided = voidedChannelLink(link, await deps.channels.get(link.channel));
    if (voided !== null) return refused(voided, `the link was posted to the channel ${link.channel}, which ${VOIDED[voided]}`);
  }
  if (token.expiresAt <= now) return refused('link-expired', 'the link has expired');
  if (now - token.consumedAt > MAX_CONSUMED_TOKEN_AGE_MS)
    return refused(
      'link-stale',
      `the link was consumed ${Math.round((now - token.consumedAt) / 1000)} s ago, more than ${MAX_CONSUMED_TOKEN_AGE_MS / 1000} s before this signing`,
    );
  if (token.signedAt !== null) return refused('already-used', ALREADY_SIGNED);
  const marked = await deps.tokens.markSigned(request.tokenId, token.consumedAt);
  if (marked.kind === 'already-signed') return refused('already-used', ALREADY_SIGNED);
  if (marked.kind === 'refused') return refused('already-used', 'the link was already refused');
  if (marked.kind === 'not-consumed') return { kind: 'refused', reason: 'the link was released or consumed again meanwhile', kept: null };
  return { kind: 'authorized', batch: token.batch };
}

const ALREADY_SIGNED = 'the link was already used for a signing';

const VOIDED = { 'channel-removed': 'was removed or replaced since', 'links-revoked': 'withdrew its links since' } as const;

/** The request's link, verified and matched against the request; a string says why it does not authorize it. */
function signedLinkOf(deps: Pick<RevocationAuthorizationDeps, 'links'>, request: RevocationRequest, now: number): SignedLink | string {
  const revoke = deps.links.read('revoke', request.token, now);
  if (revoke.kind !== 'invalid') {
    const { claims } = revoke;
    if (claims.tokenId !== request.tokenId) return 'the signed link is not the one whose token was consumed';
    if (claims.account !== request.account) return 'the signed link is for another account';
    if (claims.delegate !== request.delegate) return 'the signed link is for another delegate';
    if (revoke.kind === 'expired') return 'the signed link has expired';
    return { batch: null, channel: claims.channel, issuedAt: claims.issuedAt };
  }
  const all = deps.links.read('revoke-all', request.token, now);
  if (all.kind === 'invalid') return 'the request carries no valid revoke or revoke-all link';
  const { claims } = all;
  if (claims.account !== request.account) return "the signed revoke-all link is for another account than the unit's";
  if (revokeAllUnitId(claims.tokenId, request.delegate) !== request.tokenId) return 'the token is not the unit of this delegate in the signed revoke-all link';
  if (all.kind === 'expired') return 'the signed link has expired';
  return { batch: claims.tokenId, channel: claims.channel, issuedAt: claims.issuedAt };
}

/** Why the consumed token is not the one the verified link names (nothing is kept on such a token); `null` when it is. */
function mismatchOf(token: ConsumedToken, request: RevocationRequest, batch: string | null): string | null {
  if (token.purpose !== 'revoke') return `the token was consumed for ${token.purpose}, not revoke`;
  if (checksummed(token.account) !== request.account) return 'the link was for another account';
  if (token.delegate === null || checksummed(token.delegate) !== request.delegate) return 'the link was for another delegate';
  if (token.batch !== batch)
    return batch === null ? 'the consumed token names a revoke-all batch, the link is a revoke link' : 'the consumed token is not of this batch';
  return null;
}

function checksummed(address: string): string | null {
  const parsed = addressSchema.safeParse(address);
  return parsed.success ? parsed.data : null;
}
