import type { Address } from '../functions/domain/address';
import { readAddress } from './readAddress';
import { UsageError } from './output';
import { readTextFile } from './readTextFile';

/**
 * Reads addresses from a file: one per line, or a CSV whose header has an `address` column (what
 * `accounts export` writes). Blank lines and `#` comments are skipped. Any line that is not an
 * address is a usage error naming the file and line; nothing is returned then.
 */
export async function readAddressFile(file: string): Promise<Address[]> {
  const text = await readTextFile(file);
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const addresses: Address[] = [];
  let column = 0;
  let headerSeen = false;
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const cells = line.split(',').map((c) => c.trim().replace(/^"|"$/g, ''));
    if (!headerSeen) {
      headerSeen = true;
      const at = cells.findIndex((c) => c.toLowerCase() === 'address');
      if (at >= 0) {
        column = at;
        continue;
      }
    }
    const read = readAddress(cells[column] ?? '');
    if (read.kind === 'invalid') throw new UsageError(`${file}:${i + 1}: ${read.reason}; nothing removed`);
    addresses.push(read.address);
  }
  if (addresses.length === 0) throw new UsageError(`${file}: no addresses in the file; nothing removed`);
  return addresses;
}
