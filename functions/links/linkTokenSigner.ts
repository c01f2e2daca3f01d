import { sign } from 'node:crypto';
import type { LinkPurpose } from '../domain/linkClaims';
import type { LinkSigningKey } from './linkKeyPair';
import { signedMessage, TOKEN_VERSION } from './linkTokenFormat';

/**
 * Signs link tokens of the purposes `P` it holds a private key for, and no other:
 * `v2.<kid>.<base64url JSON claims>.<base64url Ed25519 signature>` (86 characters of signature).
 * A function that only reads links is never given one.
 */
export class LinkTokenSigner<P extends LinkPurpose = LinkPurpose> {
  readonly #keys: ReadonlyMap<LinkPurpose, LinkSigningKey<P>>;

  constructor(keys: readonly LinkSigningKey<P>[]) {
    this.#keys = new Map(keys.map((key) => [key.purpose, key]));
  }

  /** The purposes it can sign. */
  get purposes(): readonly P[] {
    return [...this.#keys.values()].map((key) => key.purpose);
  }

  /** Signs `claims` for `purpose`; throws for a purpose it holds no key of. */
  sign(purpose: P, claims: object): string {
    const key = this.#keys.get(purpose);
    if (!key) throw new Error(`no signing key for link purpose ${String(purpose)}`);
    const body = Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url');
    const signature = sign(null, signedMessage(purpose, key.kid, body), key.privateKey).toString('base64url');
    return `${TOKEN_VERSION}.${key.kid}.${body}.${signature}`;
  }
}
