import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hexToBytes, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { SignerError } from './errors';
import type { Signer } from './ports';

/** True for a 32-byte hex secp256k1 secret key (with or without `0x`) inside the curve order. */
export function isPrivateKeyHex(value: string): boolean {
  const hex = value.startsWith('0x') ? value.slice(2) : value;
  return /^[0-9a-fA-F]{64}$/.test(hex) && secp256k1.utils.isValidSecretKey(hexToBytes(`0x${hex}`));
}

/**
 * A signer holding a private key in memory (development, tests, the simulator's demo accounts).
 * Throws `SignerError('invalid-key')` for anything but a valid 32-byte hex key; the key never appears in errors.
 */
export function createLocalSigner(privateKeyHex: string): Signer {
  const trimmed = privateKeyHex.trim();
  if (!isPrivateKeyHex(trimmed)) {
    throw new SignerError('invalid-key', 'not a valid secp256k1 private key', { details: 'expected 32 bytes of hex, optionally 0x-prefixed' });
  }
  const account = privateKeyToAccount((trimmed.startsWith('0x') ? trimmed : `0x${trimmed}`) as Hex);
  return {
    address: account.address,
    signMessage: (bytes) => account.signMessage({ message: { raw: bytes } }),
  };
}
