import type { LinkPurpose } from '../domain/linkClaims';

/** The token version signed with per-purpose Ed25519 keys. */
export const TOKEN_VERSION = 'v2';
/** The version of the HMAC tokens sent before (one secret for every purpose): refused as superseded. */
export const SUPERSEDED_VERSION = 'v1';
/** Longest token string looked at. */
export const MAX_TOKEN_LENGTH = 2_048;

/** Outcome of checking a token's signature; claims are still to be validated by the caller. */
export type TokenCheck = { kind: 'valid'; payload: unknown } | { kind: 'invalid'; reason: 'malformed' | 'bad-signature' | 'wrong-version' | 'superseded' };

/**
 * The bytes a token's signature covers: the purpose (so a key could never serve two purposes
 * even if it were shared), then the token's version, key id and body as written.
 */
export function signedMessage(purpose: LinkPurpose, kid: string, body: string): Buffer {
  return Buffer.from(`portfolio-sentinel:link:${purpose}\n${TOKEN_VERSION}.${kid}.${body}`, 'utf8');
}
