import { describe, expect, it } from 'vitest';
import {
  clearCookieHeader,
  isSessionSecret,
  newSessionSecret,
  sessionCookieFor,
  sessionKeyOf,
  setCookieHeader,
} from '../../../../functions/web/desk/sessionCookie';

describe('the desk session cookie', () => {
  it('is __Host- and Secure over HTTPS, HttpOnly and SameSite=Strict, for the whole origin', () => {
    const cookie = sessionCookieFor('https://links.example.com')!;
    expect(setCookieHeader(cookie, 'v', 43_200)).toBe('__Host-sentinel-desk=v; Path=/; Max-Age=43200; Secure; HttpOnly; SameSite=Strict');
    expect(clearCookieHeader(cookie)).toBe('__Host-sentinel-desk=; Path=/; Max-Age=0; Secure; HttpOnly; SameSite=Strict');
  });

  it('drops Secure (and so the __Host- prefix) only on a plain-HTTP loopback address, and is refused on any other plain-HTTP host', () => {
    for (const base of ['http://127.0.0.1:8080', 'http://localhost:3000', 'http://[::1]:9000']) {
      expect(sessionCookieFor(base), base).toEqual({ name: 'sentinel-desk', secure: false });
    }
    expect(sessionCookieFor('http://desk.example.com')).toBeNull();
    expect(sessionCookieFor('http://10.0.0.5:8080')).toBeNull();
  });

  it('carries a 256-bit secret the table only ever sees hashed', () => {
    const secret = newSessionSecret();
    expect(isSessionSecret(secret)).toBe(true);
    expect(newSessionSecret()).not.toBe(secret);
    expect(sessionKeyOf(secret)).not.toContain(secret);
    expect(sessionKeyOf(secret)).toBe(sessionKeyOf(secret));
    expect(isSessionSecret('short')).toBe(false);
    expect(isSessionSecret(undefined)).toBe(false);
    expect(isSessionSecret(`${secret.slice(0, 42)}!`)).toBe(false);
  });
});
