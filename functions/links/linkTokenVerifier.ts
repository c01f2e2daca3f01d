import { verify } from 'node:crypto';
import type { LinkPurpose } from '../domain/linkClaims';
import type { LinkPublicKey } from './linkKeyPair';
import { MAX_TOKEN_LENGTH, signedMessage, SUPERSEDED_VERSION, TOKEN_VERSION, type TokenCheck } from './linkTokenFormat';

/**
 * Verifies link tokens with public keys only: it holds nothing that can sign. A token verifies for
 * `purpose` only under a public key of that purpose whose `kid` it names; every key given is
 * accepted (the current one and, during a rotation, the ones it replaces until they are retired).
 */
export class LinkTokenVerifier {
  readonly #keys: readonly LinkPublicKey[];

  constructor(keys: readonly LinkPublicKey[]) {
    this.#keys = [...keys];
  }

  /** The key ids it accepts for `purpose`. */
  kidsOf(purpose: LinkPurpose): string[] {
    return this.#keys.filter((key) => key.purpose === purpose).map((key) => key.kid);
  }

  /**
   * Checks the token's form and its signature under `purpose`'s key named by its `kid`. The signature
   * must be the canonical base64url of its 64 bytes. An HMAC token of the version before is
   * `superseded`. Never throws.
   */
  verify(purpose: LinkPurpose, token: string): TokenCheck {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return { kind: 'invalid', reason: 'malformed' };
    const parts = token.split('.');
    if (parts[0] === SUPERSEDED_VERSION && parts.length === 3) return { kind: 'invalid', reason: 'superseded' };
    if (parts.length !== 4) return { kind: 'invalid', reason: 'malformed' };
    const [version, kid, body, signature] = parts as [string, string, string, string];
    if (version !== TOKEN_VERSION) return { kind: 'invalid', reason: 'wrong-version' };
    if (!/^[A-Za-z0-9_-]{8}$/.test(kid) || !/^[A-Za-z0-9_-]+$/.test(body) || !/^[A-Za-z0-9_-]{86}$/.test(signature)) {
      return { kind: 'invalid', reason: 'malformed' };
    }
    const given = Buffer.from(signature, 'base64url');
    if (given.toString('base64url') !== signature) return { kind: 'invalid', reason: 'bad-signature' };
    const message = signedMessage(purpose, kid, body);
    const key = this.#keys.find((k) => k.purpose === purpose && k.kid === kid);
    if (!key || !verify(null, message, key.publicKey, given)) return { kind: 'invalid', reason: 'bad-signature' };
    try {
      return { kind: 'valid', payload: JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown };
    } catch {
      return { kind: 'invalid', reason: 'malformed' };
    }
  }
}
