import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ActionLinks } from '../../../functions/links/actionLinks';
import { LinkTokenCodec } from '../../../functions/links/linkToken';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const BASE = 'https://sentinel.example.com/links/';
const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const DELEGATE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const T0 = Date.UTC(2025, 2, 14, 12);
const HOUR = 3_600_000;

const codec = new LinkTokenCodec(SECRET);
let counter = 0;
const links = new ActionLinks(codec, BASE, () => `token-id-${String(++counter).padStart(8, '0')}`);

function tokenOf(url: string): string {
  return new URL(url).searchParams.get('token') ?? '';
}

describe('ActionLinks', () => {
  it('builds PUBLIC_BASE_URL + path + token, and reads the claims back (checksummed)', () => {
    const url = links.build({ purpose: 'revoke', account: ACCOUNT.toLowerCase() as `0x${string}`, delegate: DELEGATE.toLowerCase() as `0x${string}` }, T0);
    expect(url.startsWith('https://sentinel.example.com/links/revoke?token=v2.')).toBe(true);
    const read = links.read('revoke', tokenOf(url), T0);
    expect(read).toEqual({
      kind: 'valid',
      claims: { purpose: 'revoke', account: ACCOUNT, delegate: DELEGATE, tokenId: expect.stringMatching(/^token-id-/), expiresAt: T0 + 72 * HOUR },
    });
  });

  it('gives each link its own token id', () => {
    const a = links.read('revoke', tokenOf(links.build({ purpose: 'revoke', account: ACCOUNT, delegate: DELEGATE }, T0)), T0);
    const b = links.read('revoke', tokenOf(links.build({ purpose: 'revoke', account: ACCOUNT, delegate: DELEGATE }, T0)), T0);
    expect(a.kind === 'valid' && b.kind === 'valid' && a.claims.tokenId !== b.claims.tokenId).toBe(true);
  });

  it('expires revoke links after 72 hours (default), exactly at expiresAt', () => {
    const token = tokenOf(links.build({ purpose: 'revoke', account: ACCOUNT, delegate: DELEGATE }, T0));
    expect(links.read('revoke', token, T0 + 72 * HOUR - 1).kind).toBe('valid');
    // An expired link still names what it was for (its signature checked), so a page can offer a new one.
    expect(links.read('revoke', token, T0 + 72 * HOUR)).toEqual({
      kind: 'expired',
      expiredAt: T0 + 72 * HOUR,
      claims: expect.objectContaining({ purpose: 'revoke', account: ACCOUNT, delegate: DELEGATE, expiresAt: T0 + 72 * HOUR }),
    });
    const short = tokenOf(links.build({ purpose: 'revoke', account: ACCOUNT, delegate: DELEGATE }, T0, HOUR));
    expect(links.read('revoke', short, T0 + HOUR).kind).toBe('expired');
  });

  it('never accepts a revoke link as an unsubscribe or snooze link, nor the other way round', () => {
    const revoke = tokenOf(links.build({ purpose: 'revoke', account: ACCOUNT, delegate: DELEGATE }, T0));
    const unsubscribe = tokenOf(links.build({ purpose: 'unsubscribe', account: ACCOUNT, email: 'owner@example.com' }, T0));
    const snooze = tokenOf(links.build({ purpose: 'snooze', account: ACCOUNT, snoozeHours: 24 }, T0));
    expect(links.read('unsubscribe', revoke, T0).kind).toBe('invalid');
    expect(links.read('snooze', revoke, T0).kind).toBe('invalid');
    expect(links.read('revoke', unsubscribe, T0).kind).toBe('invalid');
    expect(links.read('revoke', snooze, T0).kind).toBe('invalid');
    expect(links.read('unsubscribe', unsubscribe, T0).kind).toBe('valid');
  });

  it("refuses revoke claims signed under another purpose's key (claims and key must agree)", () => {
    const claims = { purpose: 'revoke', account: ACCOUNT, delegate: DELEGATE, tokenId: 'abcdefghijklmnop', expiresAt: T0 + HOUR };
    const underUnsubscribeKey = codec.sign('unsubscribe', claims);
    expect(links.read('unsubscribe', underUnsubscribeKey, T0)).toEqual({ kind: 'invalid', reason: 'the link is not for this action' });
    expect(links.read('revoke', underUnsubscribeKey, T0).kind).toBe('invalid');
  });

  it('refuses validly signed but malformed claims (unknown field, bad address, missing id)', () => {
    const good = { purpose: 'revoke', account: ACCOUNT, delegate: DELEGATE, tokenId: 'abcdefghijklmnop', expiresAt: T0 + HOUR };
    expect(links.read('revoke', codec.sign('revoke', good), T0).kind).toBe('valid');
    for (const bad of [{ ...good, admin: true }, { ...good, delegate: '0x123' }, { ...good, tokenId: 'short' }, { ...good, expiresAt: -1 }, [good], 'text']) {
      expect(links.read('revoke', codec.sign('revoke', bad as object), T0)).toEqual({ kind: 'invalid', reason: 'the link carries malformed claims' });
    }
  });

  it('treats a missing or arbitrary token as invalid, never throwing', () => {
    expect(links.read('revoke', undefined, T0)).toEqual({ kind: 'invalid', reason: 'the link has no token' });
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (input) => {
        expect(links.read('revoke', input, T0).kind).toBe('invalid');
      }),
      { numRuns: 200 },
    );
  });
});
