import { describe, expect, it } from 'vitest';
import { CsrfTokens } from '../../functions/web/csrfToken';

const csrf = new CsrfTokens('a-test-secret-that-is-long-enough-0123456789');

describe('CsrfTokens', () => {
  it('accepts the value issued for the same action and token id', () => {
    const value = csrf.issue('revoke', 'token-id-0000000001');
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(csrf.verify('revoke', 'token-id-0000000001', value)).toBe(true);
    expect(new CsrfTokens('a-test-secret-that-is-long-enough-0123456789').verify('revoke', 'token-id-0000000001', value)).toBe(true);
  });

  it('refuses it for another token id, another action or another secret', () => {
    const value = csrf.issue('revoke', 'token-id-0000000001');
    expect(csrf.verify('revoke', 'token-id-0000000002', value)).toBe(false);
    expect(csrf.verify('snooze', 'token-id-0000000001', value)).toBe(false);
    expect(new CsrfTokens('another-secret-that-is-long-enough-012345678').verify('revoke', 'token-id-0000000001', value)).toBe(false);
  });

  it('is not the link token signature: a different key is derived from the same secret', () => {
    const a = csrf.issue('revoke', 'x'.repeat(20));
    const b = csrf.issue('revoke\n', 'x'.repeat(19));
    expect(a).not.toBe(b);
  });

  it('refuses missing, altered and malformed values without throwing', () => {
    const value = csrf.issue('revoke', 'token-id-0000000001');
    const altered = `${value.slice(0, 10)}${value[10] === 'A' ? 'B' : 'A'}${value.slice(11)}`;
    for (const bad of [undefined, null, '', altered, `${value}A`, value.slice(1), 'é'.repeat(43), `${value.slice(0, 42)}${value.at(-1) === 'A' ? 'B' : 'A'}`]) {
      expect(csrf.verify('revoke', 'token-id-0000000001', bad)).toBe(false);
    }
  });
});
