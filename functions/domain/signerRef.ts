import * as z from 'zod';

/** Where an account's owner key lives: a KMS key (id, ARN, alias or alias ARN), or a hex key in an environment variable (local use). */
export type SignerRef = { kind: 'kms'; keyId: string } | { kind: 'env'; variable: string };

const KEY_ID = '(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|mrk-[0-9a-f]{32})';
const ALIAS = 'alias/(?!aws/)[A-Za-z0-9/_-]{1,250}';
const ARN = `arn:aws[a-z-]*:kms:[a-z0-9-]+:\\d{12}:(?:key/${KEY_ID}|${ALIAS})`;
const KMS = new RegExp(`^(?:${KEY_ID}|${ALIAS}|${ARN})$`, 'i');
const ENV = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Parses `kms:<key id | key ARN | alias/name | alias ARN>` or `env:<VARIABLE>`; `null` when it is neither. */
export function parseSignerRef(ref: string): SignerRef | null {
  const sep = ref.indexOf(':');
  const [scheme, rest] = [ref.slice(0, sep), ref.slice(sep + 1)];
  if (scheme === 'kms' && KMS.test(rest)) return { kind: 'kms', keyId: rest };
  if (scheme === 'env' && ENV.test(rest)) return { kind: 'env', variable: rest };
  return null;
}

/** A signer reference as text, validated and trimmed. */
export const signerRefSchema = z
  .string()
  .trim()
  .refine((s) => parseSignerRef(s) !== null, {
    error: (iss) => `${JSON.stringify(iss.input)} is not a signer reference: use kms:<key id, key ARN or alias/name> or env:<VARIABLE_NAME>`,
  });
