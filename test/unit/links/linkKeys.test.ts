import { sign } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { describe, expect, it } from 'vitest';
import { LINK_PURPOSES, type LinkPurpose } from '../../../functions/domain/linkClaims';
import { deriveLinkKeyPair, linkPublicKeysSchema, publicKeysOf, publishedRecordOf, rawPublicKey } from '../../../functions/links/linkKeyPair';
import { LinkMinter } from '../../../functions/links/linkMinter';
import { LinkReader, SUPERSEDED_LINK_REASON } from '../../../functions/links/linkReader';
import { LinkTokenCodec } from '../../../functions/links/linkToken';
import { signedMessage } from '../../../functions/links/linkTokenFormat';
import { LinkTokenSigner } from '../../../functions/links/linkTokenSigner';
import { LinkTokenVerifier } from '../../../functions/links/linkTokenVerifier';
import { PageLinks } from '../../../functions/links/pageLinks';

const BASE = 'https://links.example.com';
const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const DELEGATE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const T0 = Date.UTC(2026, 10, 26, 12);
const tokenOf = (url: string): string => new URL(url).searchParams.get('token') ?? '';

/** One random-looking secret per purpose, as the data stack generates them. */
const pairOf = <P extends LinkPurpose>(purpose: P, generation = 1) =>
  deriveLinkKeyPair(purpose, `${purpose}-secret-of-generation-${generation}-0123456789abcdef`);

describe('per-purpose Ed25519 link keys', () => {
  it('a page given only public keys holds nothing that signs: no method, and a public key refuses to sign', () => {
    const revoke = pairOf('revoke');
    const published = publicKeysOf(linkPublicKeysSchema.parse(JSON.parse(JSON.stringify(publishedRecordOf([revoke.public])))), ['revoke']);
    const verifier = new LinkTokenVerifier(published);
    const reader = new LinkReader(verifier, BASE);
    expect('sign' in verifier).toBe(false);
    expect('build' in reader).toBe(false);
    for (const key of published) {
      expect(key.publicKey.type).toBe('public');
      expect(() => sign(null, Buffer.from('v2.x.y'), key.publicKey)).toThrow();
    }
    // @ts-expect-error a verifier has no way to sign
    expect(() => verifier.sign('revoke', {})).toThrow(TypeError);
    // @ts-expect-error a reader has no way to make a link
    expect(() => reader.build({ purpose: 'revoke', account: ACCOUNT, delegate: DELEGATE }, T0)).toThrow(TypeError);
  });

  it('the preferences page mints its two purposes only: a revoke link is a type error and a runtime refusal', () => {
    const minter = new LinkMinter<'preferences' | 'security-off'>(new LinkTokenSigner([pairOf('preferences').signing, pairOf('security-off').signing]), BASE);
    const page = new PageLinks(new LinkReader(new LinkTokenVerifier([pairOf('preferences').public]), BASE), minter);
    const url = page.build({ purpose: 'preferences', account: ACCOUNT, email: 'desk@example.com' }, T0);
    expect(page.read('preferences', tokenOf(url), T0).kind).toBe('valid');
    // @ts-expect-error the page holds no revoke key
    expect(() => page.build({ purpose: 'revoke', account: ACCOUNT, delegate: DELEGATE }, T0)).toThrow(/no signing key for link purpose revoke/);
  });

  it("a token verifies only under its own purpose: another purpose's key, or its own key listed under another purpose, refuses it", () => {
    const revoke = pairOf('revoke');
    const token = new LinkTokenSigner([revoke.signing]).sign('revoke', { n: 1 });
    expect(new LinkTokenVerifier([revoke.public]).verify('revoke', token).kind).toBe('valid');
    expect(new LinkTokenVerifier([pairOf('snooze').public]).verify('snooze', token)).toEqual({ kind: 'invalid', reason: 'bad-signature' });
    // A revoke public key published under snooze (a misconfiguration) still does not make a revoke token a snooze token.
    const misfiled = { ...revoke.public, purpose: 'snooze' as const };
    expect(new LinkTokenVerifier([misfiled]).verify('snooze', token)).toEqual({ kind: 'invalid', reason: 'bad-signature' });
    expect(new LinkTokenVerifier([revoke.public]).verify('snooze', token)).toEqual({ kind: 'invalid', reason: 'bad-signature' });
  });

  it('gives every purpose its own key and key id, also from one local secret', () => {
    const kids = LINK_PURPOSES.map((purpose) => deriveLinkKeyPair(purpose, 'one-local-secret-that-is-long-enough-0123').public.kid);
    expect(new Set(kids).size).toBe(LINK_PURPOSES.length);
    for (const kid of kids) expect(kid).toMatch(/^[A-Za-z0-9_-]{8}$/);
  });

  describe('rotation by key id', () => {
    const old = pairOf('revoke', 1);
    const fresh = pairOf('revoke', 2);
    const oldToken = new LinkTokenSigner([old.signing]).sign('revoke', { n: 1 });
    const freshToken = new LinkTokenSigner([fresh.signing]).sign('revoke', { n: 2 });

    it('names the signing key in the token, and accepts the old kid while it is published', () => {
      expect(oldToken.split('.')[1]).toBe(old.signing.kid);
      expect(freshToken.split('.')[1]).toBe(fresh.signing.kid);
      const during = new LinkTokenVerifier(publicKeysOf(publishedRecordOf([fresh.public, old.public]), ['revoke']));
      expect(during.kidsOf('revoke')).toEqual([fresh.public.kid, old.public.kid]);
      expect(during.verify('revoke', oldToken).kind).toBe('valid');
      expect(during.verify('revoke', freshToken).kind).toBe('valid');
    });

    it('refuses the old kid once it is retired (no longer published)', () => {
      const after = new LinkTokenVerifier(publicKeysOf(publishedRecordOf([fresh.public]), ['revoke']));
      expect(after.verify('revoke', oldToken)).toEqual({ kind: 'invalid', reason: 'bad-signature' });
      expect(after.verify('revoke', freshToken).kind).toBe('valid');
    });

    it('refuses a token whose kid was swapped for a published one', () => {
      const during = new LinkTokenVerifier([fresh.public, old.public]);
      const [v, , body, signature] = oldToken.split('.');
      expect(during.verify('revoke', `${v}.${fresh.public.kid}.${body}.${signature}`)).toEqual({ kind: 'invalid', reason: 'bad-signature' });
    });
  });

  describe('an independent Ed25519 implementation (@noble/curves)', () => {
    const pair = pairOf('unsubscribe');
    const token = new LinkTokenSigner([pair.signing]).sign('unsubscribe', { account: ACCOUNT, n: 3 });
    const [, kid, body, signature] = token.split('.') as [string, string, string, string];
    const publicKey = Buffer.from(rawPublicKey(pair.public.publicKey), 'base64url');

    it('verifies the signature over the purpose-bound message, and refuses it for another purpose or body', () => {
      const sig = Buffer.from(signature, 'base64url');
      expect(ed25519.verify(sig, signedMessage('unsubscribe', kid, body), publicKey)).toBe(true);
      expect(ed25519.verify(sig, signedMessage('preferences', kid, body), publicKey)).toBe(false);
      expect(ed25519.verify(sig, signedMessage('unsubscribe', kid, `${body}A`), publicKey)).toBe(false);
    });

    it('a token signed by it with the same key verifies here, and one signed with another key does not', () => {
      const seed = Buffer.from(String(pair.signing.privateKey.export({ format: 'jwk' }).d), 'base64url');
      expect(Buffer.from(ed25519.getPublicKey(seed))).toEqual(publicKey);
      const theirs = Buffer.from(ed25519.sign(signedMessage('unsubscribe', kid, body), seed)).toString('base64url');
      expect(new LinkTokenVerifier([pair.public]).verify('unsubscribe', `v2.${kid}.${body}.${theirs}`)).toEqual({
        kind: 'valid',
        payload: { account: ACCOUNT, n: 3 },
      });
      const other = ed25519.keygen();
      const forged = Buffer.from(ed25519.sign(signedMessage('unsubscribe', kid, body), other.secretKey)).toString('base64url');
      expect(new LinkTokenVerifier([pair.public]).verify('unsubscribe', `v2.${kid}.${body}.${forged}`)).toEqual({ kind: 'invalid', reason: 'bad-signature' });
      expect(ed25519.getPublicKey(other.secretKey)).not.toEqual(publicKey);
    });
  });

  it('keeps links short enough for email and chat buttons (a revoke URL under 512 characters)', () => {
    const url = new LinkMinter(new LinkTokenSigner([pairOf('revoke').signing]), BASE).build({ purpose: 'revoke', account: ACCOUNT, delegate: DELEGATE }, T0);
    expect(url).toMatch(/^https:\/\/links\.example\.com\/revoke\?token=v2\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
    expect(url.length).toBeLessThan(512);
  });

  it('a link minted before the per-purpose keys (HMAC, v1) is refused with a page that says so', () => {
    const reader = new LinkReader(new LinkTokenCodec('local-secret-that-is-long-enough-0123456789').verifier(), BASE);
    const legacy = `v1.${Buffer.from(JSON.stringify({ purpose: 'revoke', account: ACCOUNT })).toString('base64url')}.${'A'.repeat(43)}`;
    expect(reader.read('revoke', legacy, T0)).toEqual({ kind: 'invalid', reason: SUPERSEDED_LINK_REASON });
  });
});
