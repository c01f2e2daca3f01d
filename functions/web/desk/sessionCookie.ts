import { createHash, randomBytes } from 'node:crypto';

/**
 * The session cookie the desk sets: `__Host-sentinel-desk` with `Secure` when the page is served
 * over HTTPS (`PUBLIC_BASE_URL`); over plain HTTP on a loopback address (`npm start`,
 * `sentinel serve`), where a browser refuses `Secure` and so every `__Host-` cookie,
 * `sentinel-desk` without `Secure`. Both are `HttpOnly`, `SameSite=Strict`, `Path=/`, no `Domain`.
 * Plain HTTP anywhere else gets no cookie at all (`null`): a session would cross the network in clear.
 */
export interface SessionCookie {
  readonly name: string;
  readonly secure: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The session cookie of the desk served at `publicBaseUrl`, or `null` when it may not hold one (plain HTTP off loopback). */
export function sessionCookieFor(publicBaseUrl: string): SessionCookie | null {
  const url = new URL(publicBaseUrl);
  if (url.protocol === 'https:') return { name: '__Host-sentinel-desk', secure: true };
  return LOOPBACK.has(url.hostname) ? { name: 'sentinel-desk', secure: false } : null;
}

/** The `Set-Cookie` value that stores `value` for `maxAgeSeconds`. */
export function setCookieHeader(cookie: SessionCookie, value: string, maxAgeSeconds: number): string {
  return [
    `${cookie.name}=${value}`,
    'Path=/',
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
    ...(cookie.secure ? ['Secure'] : []),
    'HttpOnly',
    'SameSite=Strict',
  ].join('; ');
}

/** The `Set-Cookie` value that removes the cookie. */
export function clearCookieHeader(cookie: SessionCookie): string {
  return setCookieHeader(cookie, '', 0);
}

/** A new session secret: 256 random bits, base64url (what the cookie carries). */
export function newSessionSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored key of a session: the SHA-256 of its secret, so the table never holds a usable cookie. */
export function sessionKeyOf(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64url');
}

/** Whether a cookie value has the shape of a session secret (anything else is ignored unread). */
export function isSessionSecret(value: string | undefined): value is string {
  return value !== undefined && /^[A-Za-z0-9_-]{43}$/.test(value);
}
