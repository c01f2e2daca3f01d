import { SignerError } from './errors';
import { createKmsSigner, type KmsClientLike } from './kmsSigner';
import { createLocalSigner, isPrivateKeyHex } from './localSigner';
import type { Signer } from './ports';

/** A parsed `--signer` reference: `kms:<key id, ARN or alias>` or `env:<VARIABLE>`. */
export type SignerRef = { kind: 'kms'; keyId: string } | { kind: 'env'; variable: string };

const KMS_KEY_ID = /^[A-Za-z0-9:/_+=.@-]{1,2048}$/;
const ENV_VARIABLE = /^[A-Za-z_][A-Za-z0-9_]{0,254}$/;

/** Parses a signer reference; throws `SignerError('bad-reference')` explaining the accepted forms. */
export function parseSignerRef(ref: string): SignerRef {
  const colon = ref.indexOf(':');
  const scheme = colon < 0 ? '' : ref.slice(0, colon);
  const rest = colon < 0 ? '' : ref.slice(colon + 1);
  if (scheme === 'kms' && KMS_KEY_ID.test(rest)) return { kind: 'kms', keyId: rest };
  if (scheme === 'env' && ENV_VARIABLE.test(rest)) return { kind: 'env', variable: rest };
  const shown = scheme === 'kms' || scheme === 'env' ? `${scheme}:…` : 'the given reference';
  throw new SignerError('bad-reference', `${shown} is not a signer reference`, {
    details: 'use kms:<key id, ARN or alias/name> or env:<VARIABLE> (a variable holding a hex private key)',
  });
}

/**
 * Builds the signer a reference names. `env:` reads the hex private key from `env`; `kms:` needs `kms`.
 * Errors name the reference and the problem, never the key.
 */
export async function resolveSigner(
  ref: string,
  deps: { env?: Readonly<Record<string, string | undefined>>; kms?: KmsClientLike | undefined } = {},
): Promise<Signer> {
  const parsed = parseSignerRef(ref);
  if (parsed.kind === 'kms') {
    if (!deps.kms) throw new SignerError('kms-unavailable', `${ref}: no KMS client is configured here`);
    return createKmsSigner({ kms: deps.kms, keyId: parsed.keyId });
  }
  const value = deps.env?.[parsed.variable];
  if (value === undefined || value.trim() === '') {
    throw new SignerError('missing-key', `${ref}: environment variable ${parsed.variable} is not set`);
  }
  if (!isPrivateKeyHex(value.trim())) {
    throw new SignerError('invalid-key', `${ref}: ${parsed.variable} does not hold a 32-byte hex private key`);
  }
  return createLocalSigner(value);
}
