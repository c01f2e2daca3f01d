import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * The anti-CSRF value of the pages' forms, stateless: an HMAC of the link's token id under a key
 * derived (HKDF) from the link secret for this use only. The GET page embeds it in a hidden
 * field; the POST must carry it back. Bound to the form's action, so a snooze form's value does
 * not fit the revoke form. Issues under `secret`; also accepts values issued under any of
 * `previous`, so a page opened just before a rotation can still be submitted.
 */
export class CsrfTokens {
  /** The current secret's key first, then each previous one's. */
  readonly #keys: readonly Buffer[];

  constructor(secret: string, previous: readonly string[] = []) {
    if (secret.length < 32) throw new Error('CSRF secret must be at least 32 characters');
    if (previous.some((s) => s.length < 32)) throw new Error('previous CSRF secrets must be at least 32 characters');
    this.#keys = [secret, ...previous.filter((s) => s !== secret)].map((s) => Buffer.from(hkdfSync('sha256', s, 'portfolio-sentinel', 'csrf:form', 32)));
  }

  /** The value for the form acting on `tokenId` for `action` (e.g. `revoke`), under the current secret. */
  issue(action: string, tokenId: string): string {
    return this.#mac(this.#currentKey(), action, tokenId).toString('base64url');
  }

  /** Whether `value` is the form value for `action` and `tokenId` under any known secret; constant-time, never throws. */
  verify(action: string, tokenId: string, value: string | null | undefined): boolean {
    if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(value)) return false;
    const given = Buffer.from(value, 'base64url');
    // Every key is tried (no early exit), so timing does not tell which secret issued the value.
    return this.#keys.reduce((found, key) => {
      const expected = this.#mac(key, action, tokenId);
      return (given.length === expected.length && timingSafeEqual(given, expected)) || found;
    }, false);
  }

  #currentKey(): Buffer {
    const key = this.#keys[0];
    if (!key) throw new Error('no CSRF key');
    return key;
  }

  #mac(key: Buffer, action: string, tokenId: string): Buffer {
    return createHmac('sha256', key).update(`${action}\n${tokenId}`).digest();
  }
}
