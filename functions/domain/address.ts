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

/** A hex account address in any case; the output is EIP-55 checksummed. */
export const addressSchema = z
  .string()
  .refine(isHexAddress, { message: 'not a 20-byte hex address' })
  .transform(checksumAddress);
