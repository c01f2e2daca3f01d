import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { canonicalJson } from './canonical';
import type { SignedTransaction } from './ports';

/**
 * An id of one signed transaction, for the audit trail: `0x` + keccak-256 of its canonical
 * `data` JSON, a `.` and its signature. The chain names transactions by no hash of its own;
 * two different signed transactions (another nonce, a re-signing) never share this id.
 */
export function transactionHash(tx: SignedTransaction): `0x${string}` {
  return `0x${bytesToHex(keccak_256(utf8ToBytes(`${canonicalJson(tx.data)}.${tx.signature.toLowerCase()}`)))}`;
}
