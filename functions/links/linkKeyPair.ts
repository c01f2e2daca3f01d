import { createHash, createPrivateKey, createPublicKey, hkdfSync, type KeyObject } from 'node:crypto';
import * as z from 'zod';
import { LINK_PURPOSES, type LinkPurpose } from '../domain/linkClaims';

/** A private key that signs links of one purpose; `kid` names its public key in every token it signs. */
export interface LinkSigningKey<P extends LinkPurpose = LinkPurpose> {
  readonly purpose: P;
  readonly kid: string;
  readonly privateKey: KeyObject;
}

/** A public key that verifies links of one purpose. It cannot sign. */
export interface LinkPublicKey {
  readonly purpose: LinkPurpose;
  readonly kid: string;
  readonly publicKey: KeyObject;
}

/** Shortest secret a key pair may be derived from. */
export const MIN_LINK_KEY_SECRET_LENGTH = 32;

/** PKCS#8 DER header of an Ed25519 private key; the 32-byte seed follows (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * The Ed25519 key pair of `purpose` derived from `secret` (HKDF-SHA256, `info = ed25519:link:<purpose>`,
 * giving the 32-byte seed): one random secret per purpose in AWS, one local secret for every purpose
 * locally. Different purposes never share a key, even from one secret.
 */
export function deriveLinkKeyPair<P extends LinkPurpose>(purpose: P, secret: string): { signing: LinkSigningKey<P>; public: LinkPublicKey } {
  if (secret.length < MIN_LINK_KEY_SECRET_LENGTH) throw new Error(`a link key secret must be at least ${MIN_LINK_KEY_SECRET_LENGTH} characters`);
  const seed = Buffer.from(hkdfSync('sha256', secret, 'portfolio-sentinel', `ed25519:link:${purpose}`, 32));
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  const kid = kidOf(publicKey);
  return { signing: { purpose, kid, privateKey }, public: { purpose, kid, publicKey } };
}

/** The raw 32-byte public key, base64url (what is published). */
export function rawPublicKey(publicKey: KeyObject): string {
  const { x } = publicKey.export({ format: 'jwk' });
  if (typeof x !== 'string') throw new Error('not an Ed25519 public key');
  return x;
}

/** A key id: the first 48 bits of the SHA-256 of the raw public key, base64url (8 characters). */
export function kidOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(Buffer.from(rawPublicKey(publicKey), 'base64url'))
    .digest()
    .subarray(0, 6)
    .toString('base64url');
}

const publishedKeySchema = z.strictObject({
  kid: z.string().regex(/^[A-Za-z0-9_-]{8}$/),
  key: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'a raw Ed25519 public key, base64url'),
});

/**
 * The published public keys (the SSM parameter `LINK_PUBLIC_KEYS_PARAMETER`): per purpose, every key
 * a link may still be signed with, newest first. Each `kid` must be the id of its key.
 */
export const linkPublicKeysSchema = z.partialRecord(z.enum(LINK_PURPOSES), z.array(publishedKeySchema).max(5)).superRefine((record, ctx) => {
  for (const [purpose, keys] of Object.entries(record)) {
    for (const { kid, key } of keys ?? []) {
      if (kidOf(publicKeyFromRaw(key)) !== kid) ctx.addIssue({ code: 'custom', message: `${purpose}: kid ${kid} is not the id of its key` });
    }
  }
});
export type PublishedLinkKeys = z.infer<typeof linkPublicKeysSchema>;

/** The public keys of `purposes` in a published record. */
export function publicKeysOf(record: PublishedLinkKeys, purposes: readonly LinkPurpose[]): LinkPublicKey[] {
  return purposes.flatMap((purpose) => (record[purpose] ?? []).map(({ kid, key }) => ({ purpose, kid, publicKey: publicKeyFromRaw(key) })));
}

/** The record that publishes `keys` (in their order). */
export function publishedRecordOf(keys: readonly LinkPublicKey[]): PublishedLinkKeys {
  const record: PublishedLinkKeys = {};
  for (const { purpose, kid, publicKey } of keys) {
    const list = record[purpose] ?? [];
    if (!list.some((k) => k.kid === kid)) list.push({ kid, key: rawPublicKey(publicKey) });
    record[purpose] = list;
  }
  return record;
}

function publicKeyFromRaw(key: string): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key }, format: 'jwk' });
}
