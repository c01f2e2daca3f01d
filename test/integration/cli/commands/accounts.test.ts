import { writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliWorld } from '../../../support/cli/cliWorld';

const LOWER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const CHECKSUMMED = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

describe('sentinel accounts / collect / status', () => {
  const { cli } = cliWorld({ sim: { seed: 3 } });

  it('adds an account with every option, stores the address checksummed, and shows it as JSON', async () => {
    const add = await cli(
      'accounts',
      'add',
      LOWER,
      '--email',
      'a@example.com,b@example.com',
      '--label',
      'desk',
      '--interval',
      '15m',
      '--drawdown',
      '20,5,10',
      '--report-at',
      '07:30',
      '--timezone',
      'Europe/Berlin',
      '--expiry-warn-days',
      '1,7',
      '--signer',
      'env:OWNER_KEY',
    );
    expect(add).toMatchObject({ code: 0 });
    expect(add.stdout).toContain(CHECKSUMMED);
    const show = await cli('accounts', 'show', LOWER, '--json');
    expect(show.code).toBe(0);
    expect(show.stderr).toBe('');
    expect(JSON.parse(show.stdout)).toMatchObject({
      address: CHECKSUMMED,
      emails: ['a@example.com', 'b@example.com'],
      label: 'desk',
      interval: '15m',
      drawdownThresholds: [5, 10, 20],
      reportAt: '07:30',
      timezone: 'Europe/Berlin',
      expiryWarnDays: [7, 1],
      signer: 'env:OWNER_KEY',
    });
    expect((await cli('accounts', 'add', CHECKSUMMED, '--email', 'c@example.com')).code).toBe(1);
  });

  it('rejects invalid fields with exit status 2 and a message naming the field, writing nothing', async () => {
    const cases: [string[], RegExp][] = [
      [['--email', 'not-an-email'], /email/],
      [['--email', 'x@example.com', '--interval', '2h'], /interval/],
      [['--email', 'x@example.com', '--drawdown', '5,120'], /drawdown/],
      [['--email', 'x@example.com', '--report-at', '25:00'], /report-at/],
      [['--email', 'x@example.com', '--timezone', 'Mars/Olympus'], /timezone/],
      [['--email', 'x@example.com', '--signer', 'file:/tmp/key'], /signer/],
    ];
    for (const [options, message] of cases) {
      const run = await cli('accounts', 'add', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', ...options);
      expect(run.code, options.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect((await cli('accounts', 'add', '0x1234', '--email', 'x@example.com')).code).toBe(2);
    expect((await cli('accounts', 'show', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).code).toBe(1);
  });

  it('refuses a mixed-case address with a wrong checksum everywhere an address is typed (exit 2, "checksum"); all lower or upper case works', async () => {
    const wrong = CHECKSUMMED.replace('f39Fd', 'F39fd');
    const runs = [
      await cli('accounts', 'add', wrong, '--email', 'x@example.com'),
      await cli('accounts', 'update', wrong, '--label', 'x'),
      await cli('accounts', 'show', wrong),
      await cli('status', wrong),
      await cli('collect', '--account', wrong),
      await cli('report', '--account', wrong),
      await cli('link', 'revoke', LOWER, wrong),
    ];
    for (const run of runs) {
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/checksum/);
    }
    const upper = `0x${LOWER.slice(2).toUpperCase()}`;
    expect((await cli('accounts', 'show', upper, '--json')).code).toBe(0);
    expect((await cli('accounts', 'show', LOWER, '--json')).code).toBe(0);
  });

  it('a wrong checksum inside a file says so as the commands do, naming file and line: an import row error, and remove --file exit 2 removing nothing', async () => {
    const wrong = CHECKSUMMED.replace('f39Fd', 'F39fd');
    const dir = await mkdtemp(join(tmpdir(), 'sentinel-checksum-'));
    const csv = join(dir, 'desk.csv');
    await writeFile(csv, `address,email\n${wrong},x@example.com\n`);
    const imported = await cli('accounts', 'import', csv);
    expect(imported.code).toBe(1);
    expect(imported.stderr).toContain(`${csv}:2: address: "${wrong}" has a wrong EIP-55 checksum (mixed case;`);
    const jsonl = join(dir, 'desk.jsonl');
    await writeFile(jsonl, `{"address":"${wrong}","email":"x@example.com"}\n`);
    expect((await cli('accounts', 'import', jsonl)).stderr).toContain(`${jsonl}:1: address: "${wrong}" has a wrong EIP-55 checksum`);
    const list = join(dir, 'remove.txt');
    await writeFile(list, `# to remove\n${LOWER}\n${wrong}\n`);
    const removed = await cli('accounts', 'remove', '--file', list);
    expect(removed.code).toBe(2);
    expect(removed.stderr).toContain(`${list}:3: "${wrong}" has a wrong EIP-55 checksum`);
    expect(removed.stderr).toContain('nothing removed');
    const exported = join(dir, 'export.csv');
    await writeFile(exported, `address,label\n${wrong},x\n`);
    expect((await cli('accounts', 'remove', '--file', exported)).stderr).toContain(`${exported}:2: "${wrong}" has a wrong EIP-55 checksum`);
    expect((await cli('accounts', 'show', LOWER)).code).toBe(0);
  });

  it('updates settings, lists and removes', async () => {
    expect((await cli('accounts', 'update', LOWER, '--label', 'renamed', '--drawdown', 'none')).code).toBe(0);
    const list = await cli('accounts', 'list', '--json');
    const accounts = JSON.parse(list.stdout) as { address: string; label: string; drawdownThresholds: number[] }[];
    expect(accounts.find((a) => a.address === CHECKSUMMED)).toMatchObject({ label: 'renamed', drawdownThresholds: [] });
    expect((await cli('accounts', 'update', LOWER)).code).toBe(2);
    expect((await cli('accounts', 'list')).stdout).toContain('renamed');
  });

  it('imports CSV: valid rows are imported, bad rows reported with their line numbers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sentinel-import-'));
    const file = join(dir, 'accounts.csv');
    const rows = ['address,email,label,interval,drawdown,report-at,timezone,expiry-warn-days,signer'];
    for (let i = 1; i <= 40; i++) rows.push(`0x${i.toString(16).padStart(40, 'a')},ops${i}@example.com;risk@example.com,bot ${i},1h,5;10,08:00,UTC,7;1,`);
    rows.push('0xnot-an-address,x@example.com,,,,,,,');
    rows.push(`0x${'b'.repeat(40)},x@example.com,"quoted, label",9h,,,,,`);
    await writeFile(file, rows.join('\n'));
    const run = await cli('accounts', 'import', file, '--json');
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as { created: string[]; updated: string[]; errors: { line: number; message: string }[] };
    expect(result.created).toHaveLength(40);
    expect(result.errors.map((e) => e.line)).toEqual([42, 43]);
    expect(result.errors[1]?.message).toMatch(/interval/);
    // Importing again updates rather than duplicates.
    const again = JSON.parse((await cli('accounts', 'import', file, '--json')).stdout) as { created: string[]; updated: string[]; unchanged: string[] };
    expect(again.created).toHaveLength(0);
    expect(again.updated.length + again.unchanged.length).toBe(40);
  });

  it('collects now and shows the account status', async () => {
    const collect = await cli('collect', '--account', LOWER, '--json');
    expect(collect.code).toBe(0);
    const outcomes = JSON.parse(collect.stdout) as { kind: string; newPoints: number }[];
    expect(outcomes).toEqual([expect.objectContaining({ kind: 'collected' })]);
    const status = await cli('status', LOWER, '--json');
    expect(status.code).toBe(0);
    const report = JSON.parse(status.stdout) as { points: { count: number }; summary: Record<string, unknown>; latest: { equity: string } };
    expect(report.points.count).toBe(outcomes[0]?.newPoints);
    expect(report.points.count).toBeGreaterThan(600); // 7 days at 15m
    expect(Object.keys(report.summary)).toHaveLength(18);
    expect(Number(report.latest.equity)).toBeGreaterThan(0);
    const text = await cli('status', LOWER);
    expect(text.stdout).toMatch(/curve points\s+\d+ at 15m/);
    // The summary says what it is: the chain's answer at 1d from the midnights, not "since tracking started".
    expect(text.stdout).not.toContain('since tracking started');
    expect(text.stdout).toContain("summary (the chain's figures from daily points, 1d apart at each UTC midnight since tracking began");
    expect((report as unknown as { summarySampling: string }).summarySampling).toBe('1d');
    // One drawdown vocabulary, and units by rule: the simulator sends win rates as fractions.
    expect(text.stdout).toMatch(/drawdown\s+Drawdown \(trading, flow-adjusted\): \d+\.\d\d% now .*% deepest/);
    expect(text.stdout).toMatch(/Max drawdown reported by the chain \(sampled\)\s+\d+\.\d\d%/);
    expect(text.stdout).toMatch(/Win rate\s+([1-9]\d?|100)\.\d\d%/);
    expect((await cli('collect', '--all', '--account', LOWER)).code).toBe(2);
  });

  it('removes an account', async () => {
    expect((await cli('accounts', 'remove', LOWER)).code).toBe(0);
    expect((await cli('accounts', 'remove', LOWER)).code).toBe(1);
  });
});
