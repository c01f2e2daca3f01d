import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { testTables } from '../../support/testTables';
import { cliRunner } from '../../support/cli/cliHarness';

const address = (n: number) => `0x${n.toString(16).padStart(40, 'e')}`;
const label = (n: number) => `desk-account-with-a-long-name-${String(n).padStart(2, '0')}`;

describe('recipients list: the accounts column of a recipient of many accounts', () => {
  const tables = testTables();
  let cli: ReturnType<typeof cliRunner>;
  beforeAll(async () => {
    cli = cliRunner({ SENTINEL_TABLE_PREFIX: tables.prefix });
    const dir = await mkdtemp(join(tmpdir(), 'sentinel-many-'));
    const file = join(dir, 'accounts.csv');
    const rows = Array.from({ length: 40 }, (_, i) => `${address(i + 1)},head@example.com,${label(i)}`);
    await writeFile(file, ['address,email,label', ...rows].join('\n'));
    expect((await cli('accounts', 'import', file)).code).toBe(0);
    expect((await cli('accounts', 'add', address(99), '--email', 'trader@example.com')).code).toBe(0);
  });

  it('shows a count and the first few labels; show lists them all', async () => {
    const table = (await cli('recipients', 'list')).stdout;
    const head = table.split('\n').find((l) => l.startsWith('head@example.com')) ?? '';
    expect(head).toContain(`40: ${label(0)}, ${label(1)}, ${label(2)}, +37 more`);
    expect(head).not.toContain(label(3));
    expect(head.length).toBeLessThan(300);
    const trader = table.split('\n').find((l) => l.startsWith('trader@example.com')) ?? '';
    expect(trader).toMatch(/1: 0xeeee…ee63/i);

    const show = (await cli('recipients', 'show', 'head@example.com')).stdout;
    for (let i = 0; i < 40; i++) expect(show).toContain(label(i));
    const json = JSON.parse((await cli('recipients', 'list', '--json')).stdout) as { email: string; accounts: unknown[] }[];
    expect(json.find((r) => r.email === 'head@example.com')?.accounts).toHaveLength(40);
  });
});
