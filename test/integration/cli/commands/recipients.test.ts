import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SuppressionRepository } from '../../../../functions/store/suppressionRepository';
import { cliWorld } from '../../../support/cli/cliWorld';
import { SAMPLE_ADDRESSES } from '../../../support/store/sampleAddresses';

const [A, B] = SAMPLE_ADDRESSES;
/** The delivery settings of an address without a recipient record. */
const PER_ACCOUNT = {
  mode: 'per-account',
  timezone: null,
  reportAt: null,
  weekly: null,
  monthly: null,
  schedule: null,
  categories: ['reports', 'drawdown', 'expiry', 'security'],
  optedOut: [],
};
const address = (n: number) => `0x${n.toString(16).padStart(40, 'd')}`;

describe('recipients, suppressions and recipient edits', () => {
  const { tables, cli } = cliWorld();
  let suppressions: SuppressionRepository;
  beforeAll(async () => {
    suppressions = new SuppressionRepository(tables.client, tables.prefix);
    expect((await cli('accounts', 'add', A, '--email', 'ops@example.com,risk@example.com', '--label', 'desk')).code).toBe(0);
    expect((await cli('accounts', 'add', B, '--email', 'Ops@Example.com')).code).toBe(0);
  });

  it('shows suppression and its reason wherever recipients are shown', async () => {
    await suppressions.suppress('ops@example.com', 'unsubscribe');
    const show = await cli('accounts', 'show', A);
    expect(show.stdout).toMatch(/ops@example\.com \(suppressed: unsubscribe since \d{4}-\d\d-\d\d\)/);
    expect(show.stdout).not.toMatch(/risk@example\.com \(suppressed/);
    expect(JSON.parse((await cli('accounts', 'show', A, '--json')).stdout)).toMatchObject({
      suppressed: [{ email: 'ops@example.com', reason: 'unsubscribe' }],
    });
    expect((await cli('accounts', 'list')).stdout).toMatch(/ops@example\.com \(suppressed: unsubscribe\)/);

    const list = JSON.parse((await cli('recipients', 'list', '--json')).stdout) as {
      email: string;
      accounts: { address: string }[];
      suppressed: { reason: string } | null;
    }[];
    expect(list).toEqual([
      {
        email: 'ops@example.com',
        accounts: [
          { address: A, label: 'desk' },
          { address: B, label: null },
        ],
        suppressed: { reason: 'unsubscribe', since: expect.any(String) as unknown },
        ...PER_ACCOUNT,
      },
      { email: 'risk@example.com', accounts: [{ address: A, label: 'desk' }], suppressed: null, ...PER_ACCOUNT },
    ]);
    const one = await cli('recipients', 'show', 'OPS@example.com');
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/suppressed\s+unsubscribe since/);
    expect((await cli('recipients', 'show', 'nobody@example.com')).code).toBe(1);
  });

  it('lifts an unsubscribe; a bounce or complaint only with --force and a warning', async () => {
    const lift = await cli('recipients', 'unsuppress', 'ops@example.com');
    expect(lift).toMatchObject({ code: 0, stderr: '' });
    expect(await suppressions.isSuppressed('ops@example.com')).toBe(false);

    await suppressions.suppress('risk@example.com', 'bounce');
    const refused = await cli('recipients', 'unsuppress', 'risk@example.com');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^sentinel: risk@example\.com is suppressed because of a bounce.*--force/);
    expect(await suppressions.isSuppressed('risk@example.com')).toBe(true);
    const forced = await cli('recipients', 'unsuppress', 'risk@example.com', '--force');
    expect(forced.code).toBe(0);
    expect(forced.stderr).toMatch(/^warning: lifting a bounce suppression/);
    expect(await suppressions.isSuppressed('risk@example.com')).toBe(false);
    expect((await cli('recipients', 'unsuppress', 'risk@example.com')).code).toBe(0);
  });

  it('adds and removes recipients without retyping the others', async () => {
    expect((await cli('accounts', 'update', A, '--add-email', 'new@example.com,risk@example.com')).code).toBe(0);
    const emails = async () => (JSON.parse((await cli('accounts', 'show', A, '--json')).stdout) as { emails: string[] }).emails;
    expect(await emails()).toEqual(['ops@example.com', 'risk@example.com', 'new@example.com']);
    expect((await cli('accounts', 'update', A, '--remove-email', 'OPS@example.com', '--add-email', 'late@example.com')).code).toBe(0);
    expect(await emails()).toEqual(['risk@example.com', 'new@example.com', 'late@example.com']);
    const missing = await cli('accounts', 'update', A, '--remove-email', 'ghost@example.com');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/ghost@example\.com is not a recipient/);
    expect((await cli('accounts', 'update', A, '--remove-email', 'risk@example.com,new@example.com,late@example.com')).code).toBe(2);
    expect((await cli('accounts', 'update', A, '--email', 'x@example.com', '--add-email', 'y@example.com')).code).toBe(2);
    expect((await cli('accounts', 'update', A, '--add-email', 'not-an-email')).stderr).toMatch(/--add-email: "not-an-email" is not a valid email/);
    expect(await emails()).toEqual(['risk@example.com', 'new@example.com', 'late@example.com']);
  });

  it('removes several accounts at once, from arguments or a file', async () => {
    const many = Array.from({ length: 60 }, (_, i) => address(i + 1));
    const dir = await mkdtemp(join(tmpdir(), 'sentinel-remove-'));
    const csv = join(dir, 'accounts.csv');
    await writeFile(csv, ['address,email', ...many.map((a, i) => `${a},r${i}@example.com`)].join('\n'));
    expect((await cli('accounts', 'import', csv)).code).toBe(0);

    const two = await cli('accounts', 'remove', many[0] as string, many[1] as string);
    expect(two).toMatchObject({ code: 0, stdout: 'stopped tracking 2 accounts\n' });

    const list = join(dir, 'remove.txt');
    await writeFile(list, ['# to remove', ...many.slice(2), ''].join('\n'));
    const fromFile = await cli('accounts', 'remove', '--file', list);
    expect(fromFile).toMatchObject({ code: 0, stdout: 'stopped tracking 58 accounts\n' });
    const left = JSON.parse((await cli('accounts', 'list', '--json')).stdout) as { address: string }[];
    expect(left.map((a) => a.address).sort()).toEqual([B, A].sort());

    // An export file works too; addresses no longer tracked are named and make the exit status 1.
    const again = await cli('accounts', 'remove', '--file', csv);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/sentinel: 60 of 60 addresses were not tracked/);

    const bad = join(dir, 'bad.txt');
    await writeFile(bad, `${A}\n0x1234\n`);
    const refused = await cli('accounts', 'remove', '--file', bad);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/bad\.txt:2: "0x1234" is not a 20-byte hex address; nothing removed/);
    expect((await cli('accounts', 'show', A)).code).toBe(0);
  });
});
