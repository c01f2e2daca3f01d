import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTextFile } from '../../../cli/readTextFile';

describe('readTextFile', () => {
  it('reads UTF-8 text, and names the file and the reason when it cannot', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sentinel-read-'));
    const file = join(dir, 'accounts.csv');
    await writeFile(file, 'address,label\n0xabc,Zoë\n');
    expect(await readTextFile(file)).toBe('address,label\n0xabc,Zoë\n');

    const missing = join(dir, 'missing.csv');
    const error = await readTextFile(missing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(new RegExp(`^cannot read ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*ENOENT`));
    expect((error as Error).cause).toMatchObject({ code: 'ENOENT' });
  });
});
