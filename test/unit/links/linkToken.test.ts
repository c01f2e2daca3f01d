import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LinkTokenCodec } from '../../../functions/links/linkToken';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const codec = new LinkTokenCodec(SECRET);
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** `token` with the character at `i` replaced by a different base64url character. */
function flipAt(token: string, i: number): string {
  const current = token[i] ?? '';
  const replacement = ALPHABET[(ALPHABET.indexOf(current) + 1) % ALPHABET.length] ?? 'A';
  return `${token.slice(0, i)}${replacement}${token.slice(i + 1)}`;
}

const claims = { purpose: 'revoke', account: '0x1', n: 42 };

/** Each purpose's token `signer` makes verifies under `verifier` for that purpose alone. */
function expectPurposeBound(signer: LinkTokenCodec, verifier: LinkTokenCodec): void {
  for (const signed of ['revoke', 'unsubscribe', 'snooze'] as const) {
    const token = signer.sign(signed, claims);
    for (const checked of ['revoke', 'unsubscribe', 'snooze'] as const) {
      expect(verifier.verify(checked, token).kind, `${signed} token checked as ${checked}`).toBe(signed === checked ? 'valid' : 'invalid');
    }
  }
}

describe('LinkTokenCodec', () => {
  it('verifies what it signed, for the same purpose, and returns the payload', () => {
    const token = codec.sign('revoke', claims);
    expect(token).toMatch(/^v2\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
    expect(codec.verify('revoke', token)).toEqual({ kind: 'valid', payload: claims });
  });

  it('verifies with another instance built from the same secret, not from another secret', () => {
    const token = codec.sign('snooze', claims);
    expect(new LinkTokenCodec(SECRET).verify('snooze', token).kind).toBe('valid');
    expect(new LinkTokenCodec(`${SECRET}!`).verify('snooze', token)).toEqual({ kind: 'invalid', reason: 'bad-signature' });
  });

  it('refuses a token of one purpose under every other purpose (per-purpose keys)', () => {
    expectPurposeBound(codec, codec);
  });

  it('refuses the token after any single character of payload or signature changes', () => {
    const token = codec.sign('revoke', claims);
    const firstDot = token.indexOf('.');
    for (let i = firstDot + 1; i < token.length; i++) {
      if (token[i] === '.') continue;
      const result = codec.verify('revoke', flipAt(token, i));
      expect(result.kind, `character ${i} changed`).toBe('invalid');
    }
  });

  it('refuses a signature with a non-canonical last character (same bytes, other text)', () => {
    const token = codec.sign('revoke', claims);
    const last = token.at(-1) ?? '';
    // The last of 86 characters carries 4 unused bits: its neighbours in the alphabet can decode to the same bytes.
    const twins = [...ALPHABET].filter((c) => c !== last && (ALPHABET.indexOf(c) & ~15) === (ALPHABET.indexOf(last) & ~15));
    expect(twins.length).toBeGreaterThan(0);
    for (const twin of twins) {
      const forged = `${token.slice(0, -1)}${twin}`;
      expect(Buffer.from(forged.split('.')[3] ?? '', 'base64url')).toEqual(Buffer.from(token.split('.')[3] ?? '', 'base64url'));
      expect(codec.verify('revoke', forged)).toEqual({ kind: 'invalid', reason: 'bad-signature' });
    }
  });

  it('refuses another version, and a payload swapped in from another token', () => {
    const token = codec.sign('revoke', claims);
    const [, kid, body, signature] = token.split('.');
    expect(codec.verify('revoke', `v3.${kid}.${body}.${signature}`)).toEqual({ kind: 'invalid', reason: 'wrong-version' });
    expect(codec.verify('revoke', `V2.${kid}.${body}.${signature}`)).toEqual({ kind: 'invalid', reason: 'wrong-version' });
    const [, , otherBody] = codec.sign('revoke', { ...claims, n: 43 }).split('.');
    expect(codec.verify('revoke', `v2.${kid}.${otherBody}.${signature}`)).toEqual({ kind: 'invalid', reason: 'bad-signature' });
  });

  it('refuses an HMAC token of the version before as superseded, whatever its MAC', () => {
    const [, , body] = codec.sign('revoke', claims).split('.');
    expect(codec.verify('revoke', `v1.${body}.${'A'.repeat(43)}`)).toEqual({ kind: 'invalid', reason: 'superseded' });
  });

  it('calls malformed tokens malformed without throwing', () => {
    const token = codec.sign('revoke', claims);
    const [, kid] = token.split('.');
    for (const bad of [
      '',
      '.',
      '...',
      'v2...',
      'v2.abc',
      `${token}.x`,
      `v2.${kid}.${'A'.repeat(3000)}.${'B'.repeat(86)}`,
      `v2.${kid}.a+b.c`,
      `v2.${kid}.body.${'A'.repeat(85)}`,
      `v2.short.body.${'A'.repeat(86)}`,
      'v2.ü.x.y',
    ]) {
      const result = codec.verify('revoke', bad);
      expect(result.kind, JSON.stringify(bad.slice(0, 30))).toBe('invalid');
    }
    expect(codec.verify('revoke', undefined as unknown as string).kind).toBe('invalid');
    expect(codec.verify('admin' as 'revoke', token).kind).toBe('invalid');
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (input) => {
        expect(codec.verify('revoke', input).kind).toBe('invalid');
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a secret shorter than 32 characters', () => {
    expect(() => new LinkTokenCodec('short')).toThrow(/at least 32/);
    expect(() => new LinkTokenCodec(SECRET, ['short'])).toThrow(/at least 32/);
  });

  describe('after rotating the secret', () => {
    const first = 'first-secret-that-is-long-enough-0123456789';
    const second = 'second-secret-that-is-long-enough-012345678';
    const third = 'third-secret-that-is-long-enough-0123456789';
    const beforeRotation = new LinkTokenCodec(first);
    const afterOne = new LinkTokenCodec(second, [first]);
    const afterTwo = new LinkTokenCodec(third, [second]);

    it('still verifies a token signed with the previous secret, and signs with the new one', () => {
      const old = beforeRotation.sign('revoke', claims);
      expect(afterOne.verify('revoke', old)).toEqual({ kind: 'valid', payload: claims });
      const fresh = afterOne.sign('revoke', claims);
      expect(fresh).not.toBe(old);
      expect(new LinkTokenCodec(second).verify('revoke', fresh).kind).toBe('valid');
      expect(beforeRotation.verify('revoke', fresh)).toEqual({ kind: 'invalid', reason: 'bad-signature' });
    });

    it('refuses a token whose secret was rotated out twice, and one signed with an unknown secret', () => {
      expect(afterTwo.verify('revoke', afterOne.sign('revoke', claims)).kind).toBe('valid');
      expect(afterTwo.verify('revoke', beforeRotation.sign('revoke', claims))).toEqual({ kind: 'invalid', reason: 'bad-signature' });
      expect(afterOne.verify('revoke', new LinkTokenCodec(third).sign('revoke', claims))).toEqual({ kind: 'invalid', reason: 'bad-signature' });
    });

    it('keeps per-purpose keys for the previous secret', () => {
      expectPurposeBound(beforeRotation, afterOne);
    });

    it('refuses any single-character change of a token signed with the previous secret', () => {
      const token = beforeRotation.sign('unsubscribe', claims);
      for (let i = 3; i < token.length; i += 1) {
        if (token[i] === '.') continue;
        expect(afterOne.verify('unsubscribe', flipAt(token, i)).kind, `changed at ${i}`).toBe('invalid');
      }
    });
  });
});
