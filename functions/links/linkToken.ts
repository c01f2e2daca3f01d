import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { LINK_PURPOSES, type LinkPurpose } from '../domain/linkClaims';

/** What a link token is for. Each purpose signs with its own derived key, so tokens never cross over. */
export type { LinkPurpose };

const VERSION = 'v1';
const MAX_TOKEN_LENGTH = 2_048;

/** Outcome of checking a token's signature; claims are still to be validated by the caller. */
export type TokenCheck =
  | { kind: 'valid'; payload: unknown }
  | { kind: 'invalid'; reason: 'malformed' | 'bad-signature' | 'wrong-version' };

/**
 * Signs and verifies compact link tokens: `v1.<base64url JSON claims>.<base64url HMAC-SHA256>`.
 * The HMAC key is derived from the secret per purpose (HKDF), so a revocation token never verifies
 * as an unsubscribe or snooze token, nor the other way round. Comparison is constant-time.
 *
 * Signs with `secret` only; verifies under `secret` and then each of `previous` (the secrets it
 * replaced), so links sent before a rotation keep working until their secret is dropped.
 */
export class LinkTokenCodec {
  /** Per-purpose keys of the current secret first, then of each previous one. */
  readonly #keySets: readonly ReadonlyMap<LinkPurpose, Buffer>[];

  constructor(secret: string, previous: readonly string[] = []) {
    if (secret.length < 32) throw new Error('link secret must be at least 32 characters');
    if (previous.some((s) => s.length < 32)) throw new Error('previous link secrets must be at least 32 characters');
    this.#keySets = [secret, ...previous.filter((s) => s !== secret)].map(
      (s) => new Map(LINK_PURPOSES.map((p) => [p, Buffer.from(hkdfSync('sha256', s, 'portfolio-sentinel', `link:${p}`, 32))])),
    );
  }

  /** Signs `claims` for `purpose` with the current secret. */
  sign(purpose: LinkPurpose, claims: object): string {
    const body = Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url');
    const key = this.#keySets[0]?.get(purpose);
    if (!key) throw new Error(`unknown link purpose ${String(purpose)}`);
    return `${VERSION}.${body}.${this.#mac(key, body).toString('base64url')}`;
  }

  /**
   * Checks the token's form and its signature under `purpose`'s key of the current or a previous
   * secret. The signature must be the
   * canonical base64url of the MAC, so no two token strings carry the same signature. Never throws.
   */
  verify(purpose: LinkPurpose, token: string): TokenCheck {
    const keys = this.#keySets.flatMap((set) => set.get(purpose) ?? []);
    if (keys.length === 0) return { kind: 'invalid', reason: 'bad-signature' };
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return { kind: 'invalid', reason: 'malformed' };
    const parts = token.split('.');
    if (parts.length !== 3) return { kind: 'invalid', reason: 'malformed' };
    const [version, body, mac] = parts as [string, string, string];
    if (version !== VERSION) return { kind: 'invalid', reason: 'wrong-version' };
    if (!/^[A-Za-z0-9_-]+$/.test(body) || !/^[A-Za-z0-9_-]{43}$/.test(mac)) return { kind: 'invalid', reason: 'malformed' };
    const given = Buffer.from(mac, 'base64url');
    // Every key is tried (no early exit), so timing does not tell which secret signed the token.
    const matches = keys.reduce((found, key) => this.#matches(key, body, given) || found, false);
    if (!matches || given.toString('base64url') !== mac) return { kind: 'invalid', reason: 'bad-signature' };
    try {
      return { kind: 'valid', payload: JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown };
    } catch {
      return { kind: 'invalid', reason: 'malformed' };
    }
  }

  #matches(key: Buffer, body: string, given: Buffer): boolean {
    const expected = this.#mac(key, body);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  #mac(key: Buffer, body: string): Buffer {
    return createHmac('sha256', key).update(`${VERSION}.${body}`).digest();
  }
}
