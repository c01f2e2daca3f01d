import { computeAddress, keccak256, toUtf8Bytes } from 'ethers';

const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** A local secp256k1 key pair. */
export interface LocalKey {
  address: string;
  privateKey: string;
}

/**
 * Derives a key pair deterministically from the simulator seed and a label.
 * For local test accounts only: anyone who knows the seed knows the key.
 */
export function deriveKey(seed: number, label: string): LocalKey {
  let material = keccak256(toUtf8Bytes(`portfolio-sentinel-sim:${seed}:${label}`));
  while (BigInt(material) === 0n || BigInt(material) >= CURVE_ORDER) material = keccak256(material);
  return keyFromPrivate(material);
}

/** The key pair of a given 32-byte hex private key (throws if it is not a valid key). */
export function keyFromPrivate(privateKey: string): LocalKey {
  return { address: computeAddress(privateKey), privateKey: privateKey.toLowerCase() };
}
