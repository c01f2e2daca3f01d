import { addressProblem, checksumAddress, type Address } from '../functions/domain/address';
import { UsageError } from './output';

/**
 * Reads an address as typed, in an argument, an option or a cell of a file: the checksummed
 * address, or why it is refused as a sentence about it (`"0x12" is not a 20-byte hex address`,
 * `"0xAb…" has a wrong EIP-55 checksum (…)`). Every command and file reader says it the same way.
 */
export function readAddress(value: string): { kind: 'ok'; address: Address } | { kind: 'invalid'; reason: string } {
  const problem = addressProblem(value);
  if (problem === null) return { kind: 'ok', address: checksumAddress(value) };
  return { kind: 'invalid', reason: `${JSON.stringify(value)} ${problem.startsWith('not ') ? `is ${problem}` : `has a ${problem}`}` };
}

/** `readAddress` for the argument or option `what` (`address`, `--account`): a `UsageError` (exit 2) naming it. */
export function parseAddressArgument(what: string, value: string): Address {
  const read = readAddress(value);
  if (read.kind === 'invalid') throw new UsageError(`${what} ${read.reason}`);
  return read.address;
}
