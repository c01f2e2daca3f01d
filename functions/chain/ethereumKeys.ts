import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Address, Hex } from 'viem';
import { checksumAddress } from '../domain/address';

/** The EIP-191 (`personal_sign`) digest of `message`: keccak-256 of `"\x19Ethereum Signed Message:\n" + length + message`. */
export function eip191Digest(message: Uint8Array): Uint8Array {
  return keccak_256(concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${message.length}`), message));
}

/** The checksummed address of an uncompressed secp256k1 public key (`0x04 ‖ X ‖ Y`, 65 bytes). */
export function addressOfPublicKey(publicKey: Uint8Array): Address {
  if (publicKey.length !== 65 || publicKey[0] !== 4) throw new Error('expected an uncompressed secp256k1 public key (65 bytes, 0x04 first)');
  return checksumAddress(`0x${bytesToHex(keccak_256(publicKey.subarray(1)).subarray(12))}`);
}

/** The address of a 32-byte secp256k1 secret key. */
export function addressOfSecretKey(secretKey: Uint8Array): Address {
  return addressOfPublicKey(secp256k1.getPublicKey(secretKey, false));
}

/** Ethereum's `r ‖ s ‖ v` (v = 27 + recovery bit) for a compact low-s signature, as hex. */
export function ethereumSignatureHex(compact: Uint8Array, recovery: number): Hex {
  return `0x${bytesToHex(compact)}${(27 + recovery).toString(16)}`;
}

/** A deterministic (RFC 6979), low-s signature of a 32-byte digest, as Ethereum's `r ‖ s ‖ v`. */
export function signDigest(secretKey: Uint8Array, digest: Uint8Array): Hex {
  const signature = secp256k1.Signature.fromBytes(secp256k1.sign(digest, secretKey, { prehash: false, lowS: true, format: 'recovered' }), 'recovered');
  return ethereumSignatureHex(signature.toBytes('compact'), signature.recovery ?? 0);
}
