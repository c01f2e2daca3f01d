import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AlertStateRepository } from '../../../functions/store/alertStateRepository';
import { cliWorld } from '../../support/cli/cliWorld';

const A = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const B = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const C = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

describe('CLI messages', () => {
  const { tables, cli } = cliWorld({ sim: { seed: 5 } });

  it('names a misspelt option as unknown, with a suggestion, before any missing required option', async () => {
    const run = await cli('accounts', 'add', A, '--emial', 'x@example.com');
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe("sentinel: unknown option '--emial' (Did you mean --email?)");
    const missing = await cli('accounts', 'add', A);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^sentinel: required option '--email <a\[,b\]>' not specified/);
    const command = await cli('acounts', 'list');
    expect(command.code).toBe(2);
    expect(command.stderr.split('\n')[0]).toBe("sentinel: unknown command 'acounts' (Did you mean accounts?)");
  });

  it('counts agree in number, and list is sorted by label, then address', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sentinel-messages-'));
    const one = join(dir, 'one.csv');
    await writeFile(one, `address,email,label,interval\n${C},c@example.com,beta,1h\n`);
    expect((await cli('accounts', 'import', one)).stdout).toBe('imported 1 account (1 new, 0 updated, 0 unchanged)\n');
    expect((await cli('accounts', 'add', A, '--email', 'a@example.com', '--label', 'Alpha', '--interval', '1h')).code).toBe(0);
    expect((await cli('accounts', 'add', B, '--email', 'b@example.com', '--interval', '1h')).code).toBe(0);
    const list = await cli('accounts', 'list');
    const rows = list.stdout
      .trim()
      .split('\n')
      .slice(2, -1)
      .map((l) => /^(\S*)\s+(0x[0-9a-fA-F]{40})/.exec(l)?.slice(1, 3));
    expect(rows).toEqual([
      ['Alpha', A],
      ['beta', C],
      ['', B],
    ]);
    expect(list.stdout.trim().split('\n').at(-1)).toBe('3 accounts: 0 ok, 0 stale, 0 failing, 3 new');
    expect((JSON.parse((await cli('accounts', 'list', '--json')).stdout) as { address: string }[]).map((a) => a.address)).toEqual([A, C, B]);
  });

  it('collect --all shows progress with an ETA on stderr, a summary, and labels in its table', async () => {
    const run = await cli('collect', '--all');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^collected 1\/3 \(33%, about \d+ s left\)$/m);
    expect(run.stderr).toMatch(/^collected 3\/3 \(100%\)$/m);
    expect(run.stderr).toMatch(/^collected 3 accounts in \d+\.\d s: 3 ok; (1 alert|\d+ alerts) sent$/m);
    expect(run.stdout.split('\n')[0]).toMatch(/^LABEL\s+ACCOUNT\s+NEW POINTS/);
    expect(run.stdout).toMatch(new RegExp(`Alpha\\s+${A}`));
    const json = await cli('collect', '--all', '--json');
    expect(() => JSON.parse(json.stdout) as unknown).not.toThrow();
  });

  it('report shows labels', async () => {
    const run = await cli('report', '--account', A, '--force');
    expect(run.stdout.split('\n')[0]).toMatch(/^LABEL\s+ACCOUNT\s+OUTCOME/);
    expect(run.stdout).toMatch(new RegExp(`Alpha\\s+${A}`));
  });

  it('status shows alert states and snoozes in words and local time', async () => {
    const D = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65';
    expect((await cli('accounts', 'add', D, '--email', 'd@example.com', '--timezone', 'Europe/Berlin')).code).toBe(0);
    const alerts = new AlertStateRepository(tables.client, tables.prefix);
    const at = Date.UTC(2026, 10, 20, 9, 15);
    await alerts.compareAndSet(D, 'drawdown', null, {
      levels: {
        '5': { status: 'breached', lastValue: 6.25, lastSentAt: at, breachedAt: at },
        '10': { status: 'armed', lastValue: 6.25, lastSentAt: null, breachedAt: null },
      },
    });
    await alerts.snooze(D, Date.now() + 3_600_000);
    const run = await cli('status', D);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('alert states (times in Europe/Berlin)');
    expect(run.stdout).toMatch(/drawdown 5%\s+breached since .*10:15.*CET.*, last alert .*10:15/);
    expect(run.stdout).toMatch(/drawdown 10%\s+armed, no alert sent yet/);
    // The level states keep the drawdown of their last change, not of the last check: not shown as current.
    expect(run.stdout).not.toMatch(/6\.25%|at the last check/);
    expect(run.stdout).toMatch(/snooze\s+drawdown alerts snoozed for all recipients until /);
    expect(run.stdout).not.toMatch(/\{"|\d{13}/);
  });
});
