import { checkClaims, linkClaimsSchema, type ClaimsFor, type LinkPurpose } from '../domain/linkClaims';
import { linkUrl } from './linkPaths';
import type { LinkTokenVerifier } from './linkTokenVerifier';

/** Outcome of reading a link token. */
export type LinkCheck<P extends LinkPurpose> =
  { kind: 'valid'; claims: ClaimsFor<P> } | { kind: 'expired'; expiredAt: number; claims: ClaimsFor<P> } | { kind: 'invalid'; reason: string };

/** What a page tells the holder of a link signed before the per-purpose keys (an HMAC `v1` token). */
export const SUPERSEDED_LINK_REASON = 'the link is from an email sent before links were re-keyed; use the link in a newer email';

/**
 * Reads link tokens with public keys only (see `LinkTokenVerifier`): the signature under the
 * purpose's published keys, then the claims and the expiry. What the signing function checks a
 * request's link with; it has no way to make one, nor any page URL.
 */
export class LinkClaimsReader {
  constructor(private readonly verifier: Pick<LinkTokenVerifier, 'verify'>) {}

  /** Verifies a token for `purpose` and checks its claims; never throws on bad input. */
  read<P extends LinkPurpose>(purpose: P, token: string | undefined, now: number): LinkCheck<P> {
    if (!token) return { kind: 'invalid', reason: 'the link has no token' };
    const verified = this.verifier.verify(purpose, token);
    if (verified.kind === 'invalid') {
      if (verified.reason === 'superseded') return { kind: 'invalid', reason: SUPERSEDED_LINK_REASON };
      return { kind: 'invalid', reason: verified.reason === 'bad-signature' ? 'the link was altered or is not for this action' : 'the link is malformed' };
    }
    const claims = linkClaimsSchema.safeParse(verified.payload);
    if (!claims.success) return { kind: 'invalid', reason: 'the link carries malformed claims' };
    const check = checkClaims(claims.data, purpose, now);
    if (check.kind === 'wrong-purpose') return { kind: 'invalid', reason: 'the link is not for this action' };
    return check;
  }
}

/**
 * Reads action links with public keys only (see `LinkTokenVerifier`): what a page that acts on
 * links holds. It has no way to make a link.
 */
export class LinkReader extends LinkClaimsReader {
  constructor(
    verifier: Pick<LinkTokenVerifier, 'verify'>,
    private readonly baseUrl: string,
  ) {
    super(verifier);
  }

  /** The link for an already signed token (a page pointing back at itself). */
  urlFor(purpose: LinkPurpose, token: string): string {
    return linkUrl(this.baseUrl, purpose, token);
  }
}
