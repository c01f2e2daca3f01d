import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import * as z from 'zod';

/** A 20-byte account address written as `0x` and 40 hex digits. */
export type Address = `0x${string}`;

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Whether `value` is `0x` followed by 40 hex digits, in any case (a wrong checksum is not an error). */
export function isHexAddress(value: string): boolean {
  return HEX_ADDRESS.test(value);
}

/**
 * The EIP-55 checksummed form of a 20-byte hex address given in any case: each letter is upper
 * case where the matching nibble of keccak-256(lower-case hex digits) is 8 or more. Throws a
 * `TypeError` for anything but `0x` and 40 hex digits.
 */
export function checksumAddress(address: string): Address {
  if (!isHexAddress(address)) throw new TypeError('not a 20-byte hex address');
  const digits = address.slice(2).toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(digits)));
  let out = '0x';
  for (let i = 0; i < digits.length; i++) {
    const c = digits[i] as string;
    out += parseInt(hash[i] as string, 16) >= 8 ? c.toUpperCase() : c;
  }
  return out as Address;
}

/**
 * Whether a hex address's letter case is acceptable: all lower case, all upper case, or exactly
 * the EIP-55 checksum. Mixed case is a checksum, and a wrong one usually means a typo.
 */
export function hasValidChecksum(address: string): boolean {
  if (!isHexAddress(address)) return false;
  const digits = address.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return true;
  return checksumAddress(address) === address;
}

/** The message of an address refused for its letter case. */
export const WRONG_CHECKSUM = 'wrong EIP-55 checksum (mixed case; check it for a typo, or type it all in lower case)';

/** Why `value` is not an acceptable address, in words; `null` when it is. */
export function addressProblem(value: string): string | null {
  if (!isHexAddress(value)) return 'not a 20-byte hex address';
  if (!hasValidChecksum(value)) return WRONG_CHECKSUM;
  return null;
}

/**
 * A hex account address: all lower case, all upper case or EIP-55 checksummed (mixed case with
 * a wrong checksum is refused); the output is EIP-55 checksummed.
 */
export const addressSchema = z
  .string()
  .superRefine((value, ctx) => {
    const problem = addressProblem(value);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem, input: value, abort: true });
  })
  .transform(checksumAddress);
