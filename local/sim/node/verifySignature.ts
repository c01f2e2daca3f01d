import { verifyMessage } from 'ethers';

/** Outcome of checking an EIP-191 signature. */
export type SignatureCheck = { ok: true } | { ok: false; error: string };

/**
 * Recovers the signer of `message` (EIP-191 personal message over its UTF-8 bytes) and compares
 * it with `expected`. `signature` is r‖s‖v with v 27 or 28; high-s signatures are refused.
 */
export function verifySignature(message: string, signature: string, expected: string): SignatureCheck {
  const v = signature.slice(-2).toLowerCase();
  if (v !== '1b' && v !== '1c') return { ok: false, error: 'invalid signature: v must be 27 or 28' };
  let recovered: string;
  try {
    recovered = verifyMessage(message, signature);
  } catch (err) {
    const reason = err instanceof Error ? (err.message.split(' (')[0] ?? err.message) : 'unrecoverable';
    return { ok: false, error: `invalid signature: ${reason}` };
  }
  if (recovered !== expected) {
    return { ok: false, error: `signature does not match sender ${expected} over the canonical transaction (recovered ${recovered})` };
  }
  return { ok: true };
}
