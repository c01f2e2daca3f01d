import { readFile } from 'node:fs/promises';
import { describeError } from '../functions/shared/describeError';

/** A file's UTF-8 text; a file that cannot be read is an error naming it and why. */
export async function readTextFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${file}: ${describeError(error, { audience: 'operator' })}`, { cause: error });
  }
}
