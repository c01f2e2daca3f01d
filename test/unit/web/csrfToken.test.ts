import { describe, expect, it } from 'vitest';
import { CsrfTokens } from '../../../functions/web/csrfToken';

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

  it('accepts a value issued under the previous secret after a rotation, not one rotated out twice', () => {
    const first = 'first-secret-that-is-long-enough-0123456789';
    const second = 'second-secret-that-is-long-enough-012345678';
    const third = 'third-secret-that-is-long-enough-0123456789';
    const old = new CsrfTokens(first).issue('revoke', 'token-id-0000000001');
    const rotated = new CsrfTokens(second, [first]);
    expect(rotated.verify('revoke', 'token-id-0000000001', old)).toBe(true);
    expect(rotated.verify('snooze', 'token-id-0000000001', old)).toBe(false);
    expect(rotated.verify('revoke', 'token-id-0000000002', old)).toBe(false);
    expect(rotated.issue('revoke', 'token-id-0000000001')).toBe(new CsrfTokens(second).issue('revoke', 'token-id-0000000001'));
    expect(new CsrfTokens(third, [second]).verify('revoke', 'token-id-0000000001', old)).toBe(false);
    expect(() => new CsrfTokens(second, ['short'])).toThrow(/at least 32/);
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
