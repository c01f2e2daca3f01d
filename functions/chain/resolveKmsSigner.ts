import { SignerError } from './errors';
import { createKmsSigner, type KmsClientLike } from './kmsSigner';
import type { Signer } from './ports';
import { parseSignerRef } from './resolveSigner';

/**
 * The signer resolver of the deployed `sign-revocation` function: `kms:` references only. An
 * `env:` reference (a private key in an environment variable) is for local use and is refused in
 * AWS, so no key material ever sits in a Lambda's configuration; this also keeps the local
 * signer's code out of the bundle.
 */
export async function resolveKmsSigner(ref: string, kms: KmsClientLike): Promise<Signer> {
  const parsed = parseSignerRef(ref);
  if (parsed.kind !== 'kms') {
    throw new SignerError('bad-reference', `${parsed.kind}: signers are for local use only`, {
      details: 'in AWS the owner key lives in KMS: set the account signer to kms:<key id, ARN or alias/name>',
    });
  }
  return createKmsSigner({ kms, keyId: parsed.keyId });
}
