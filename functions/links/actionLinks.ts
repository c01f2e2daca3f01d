import { randomBytes } from 'node:crypto';
import {
  checkClaims,
  issueClaims,
  linkClaimsSchema,
  type ClaimsFor,
  type LinkPurpose,
  type LinkRequest,
} from '../domain/linkClaims';
import type { LinkTokenCodec } from './linkToken';

/** The path of each action under `PUBLIC_BASE_URL`. */
export const LINK_PATHS: Readonly<Record<LinkPurpose, string>> = {
  revoke: '/revoke',
  'revoke-all': '/revoke-all',
  unsubscribe: '/unsubscribe',
  snooze: '/snooze',
  preferences: '/preferences',
  // The confirmation opens the preferences page, which tells the two tokens apart by their keys.
  'security-off': '/preferences',
  // A chat's buttons open the same pages, which tell a channel's token from a recipient's by its keys.
  'channel-snooze': '/snooze',
  'channel-preferences': '/preferences',
};

/** Outcome of reading a link token. */
export type LinkCheck<P extends LinkPurpose> =
  | { kind: 'valid'; claims: ClaimsFor<P> }
  | { kind: 'expired'; expiredAt: number; claims: ClaimsFor<P> }
  | { kind: 'invalid'; reason: string };

/**
 * Makes and reads the action links written into emails: `PUBLIC_BASE_URL` + path + `?token=`.
 * The token is signed for one purpose (see `LinkTokenCodec`), carries a random id (consumed once
 * by the page that acts on it) and an expiry. The token is a capability: never log a link.
 */
export class ActionLinks {
  constructor(
    private readonly codec: LinkTokenCodec,
    private readonly baseUrl: string,
    private readonly newTokenId: () => string = () => randomBytes(18).toString('base64url'),
    /**
     * Whether the endpoint behind `baseUrl` serves `/revoke-all`: the local endpoint does; a
     * Lambda says so with `REVOKE_ALL_LINKS` (set by the stage that routes it), else its emails and
     * chat notices carry no revoke-all link.
     */
    readonly revokeAllServed: boolean = true,
  ) {}

  /** A link for `request`, valid for the purpose's default lifetime (or `ttlMs`). */
  build(request: LinkRequest, now: number, ttlMs?: number): string {
    const claims = issueClaims(request, this.newTokenId(), now, ttlMs);
    return this.urlFor(request.purpose, this.codec.sign(request.purpose, claims));
  }

  /** The link for an already signed token. */
  urlFor(purpose: LinkPurpose, token: string): string {
    return `${this.baseUrl.replace(/\/+$/, '')}${LINK_PATHS[purpose]}?token=${encodeURIComponent(token)}`;
  }

  /** Verifies a token for `purpose` and checks its claims; never throws on bad input. */
  read<P extends LinkPurpose>(purpose: P, token: string | undefined, now: number): LinkCheck<P> {
    if (!token) return { kind: 'invalid', reason: 'the link has no token' };
    const verified = this.codec.verify(purpose, token);
    if (verified.kind === 'invalid') {
      return { kind: 'invalid', reason: verified.reason === 'bad-signature' ? 'the link was altered or is not for this action' : 'the link is malformed' };
    }
    const claims = linkClaimsSchema.safeParse(verified.payload);
    if (!claims.success) return { kind: 'invalid', reason: 'the link carries malformed claims' };
    const check = checkClaims(claims.data, purpose, now);
    if (check.kind === 'wrong-purpose') return { kind: 'invalid', reason: 'the link is not for this action' };
    return check;
  }
}
