import { randomBytes } from 'node:crypto';
import { issueClaims, type LinkPurpose, type LinkRequest } from '../domain/linkClaims';
import { linkUrl } from './linkPaths';

/** The request of a link of one of the purposes `P`. */
export type LinkRequestOf<P extends LinkPurpose> = Extract<LinkRequest, { purpose: P }>;

/** Signs tokens of the purposes `P` (a `LinkTokenSigner<P>`, or locally the `LinkTokenCodec`). */
export interface TokenSigning<P extends LinkPurpose> {
  sign(purpose: P, claims: object): string;
}

/**
 * Makes the action links written into emails and chat notices: `PUBLIC_BASE_URL` + path +
 * `?token=`, for the purposes `P` it holds private keys of, and no other. Each token carries a
 * random id (consumed once by the page that acts on it) and an expiry. The token is a capability:
 * never log a link.
 */
export class LinkMinter<P extends LinkPurpose = LinkPurpose> {
  constructor(
    private readonly signer: TokenSigning<P>,
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
  build(request: LinkRequestOf<P>, now: number, ttlMs?: number): string {
    const purpose = request.purpose as P;
    return linkUrl(this.baseUrl, purpose, this.signer.sign(purpose, issueClaims(request, this.newTokenId(), now, ttlMs)));
  }

  /** The link for an already signed token. */
  urlFor(purpose: LinkPurpose, token: string): string {
    return linkUrl(this.baseUrl, purpose, token);
  }
}

/**
 * What the services that write links take: a minter of whatever purposes the function holds keys
 * of (a purpose it holds no key of throws when built).
 */
export type Links = Pick<LinkMinter, 'build' | 'urlFor' | 'revokeAllServed'>;
