import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * The anti-CSRF value of the pages' forms, stateless: an HMAC of the link's token id under a key
 * derived (HKDF) from the link secret for this use only. The GET page embeds it in a hidden
 * field; the POST must carry it back. Bound to the form's action, so a snooze form's value does
 * not fit the revoke form.
 */
export class CsrfTokens {
  readonly #key: Buffer;

  constructor(secret: string) {
    if (secret.length < 32) throw new Error('CSRF secret must be at least 32 characters');
    this.#key = Buffer.from(hkdfSync('sha256', secret, 'portfolio-sentinel', 'csrf:form', 32));
  }

  /** The value for the form acting on `tokenId` for `action` (e.g. `revoke`). */
  issue(action: string, tokenId: string): string {
    return this.#mac(action, tokenId).toString('base64url');
  }

  /** Whether `value` is the form value for `action` and `tokenId`; constant-time, never throws. */
  verify(action: string, tokenId: string, value: string | null | undefined): boolean {
    if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(value)) return false;
    const given = Buffer.from(value, 'base64url');
    const expected = this.#mac(action, tokenId);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  #mac(action: string, tokenId: string): Buffer {
    return createHmac('sha256', this.#key).update(`${action}\n${tokenId}`).digest();
  }
}
