import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testTables } from '../../../support/testTables';
import { cliRunner } from '../../../support/cli/cliHarness';
import { createRepositories } from '../../../../functions/store/repositories';

const ACCOUNT = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const KEPT = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

describe('kill-switch settings in the CLI', () => {
  const tables = testTables();
  /** `address` added with a kill switch at `pct` through a CLI with a protection switch file of its own; that CLI and the repositories. */
  async function withKillSwitch(address: string, pct: string) {
    const cli = cliRunner({ SENTINEL_TABLE_PREFIX: tables.prefix }, Date.now, join(await mkdtemp(join(tmpdir(), 'killswitch-')), 'protection'));
    expect((await cli('accounts', 'add', address, '--email', 'desk@example.com', '--kill-switch', pct)).code).toBe(0);
    return { cli, repos: createRepositories(tables.client, tables.prefix) };
  }

  it('adds, shows, warns while protection is off, and carries the columns through export and import', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'killswitch-'));
    const cli = cliRunner({ SENTINEL_TABLE_PREFIX: tables.prefix }, Date.now, join(dir, 'protection'));
    const add = await cli(
      'accounts',
      'add',
      ACCOUNT,
      '--email',
      'desk@example.com',
      '--kill-switch',
      '30',
      '--keep-delegate',
      KEPT.toLowerCase(),
      '--kill-switch-dry-run',
      'on',
    );
    expect(add.code).toBe(0);
    expect(add.stderr).toContain('automatic actions are off stage-wide');
    const shown = JSON.parse((await cli('accounts', 'show', ACCOUNT, '--json')).stdout) as Record<string, unknown>;
    expect(shown).toMatchObject({
      killSwitch: 30,
      killSwitchConfirm: 'wait',
      keepDelegates: [KEPT],
      killSwitchWebSessions: 'keep',
      killSwitchDryRun: true,
      protection: 'off',
    });
    const text = (await cli('accounts', 'show', ACCOUNT)).stdout;
    expect(text).toMatch(/kill switch\s+30%; confirmed at the next evaluation; web sessions kept; keeps 0x90F79bf6EB2c4f870365E785982E1f101E93b906; DRY RUN/);
    expect(text).toMatch(/protection\s+OFF stage-wide/);

    expect((await cli('protection', 'on')).code).toBe(0);
    const update = await cli(
      'accounts',
      'update',
      ACCOUNT,
      '--kill-switch-confirm',
      'now',
      '--kill-switch-web-sessions',
      'revoke',
      '--kill-switch-dry-run',
      'off',
    );
    expect(update).toMatchObject({ code: 0, stderr: '' });
    expect((await cli('accounts', 'show', ACCOUNT)).stdout).toMatch(
      /kill switch\s+30%; acts on the first evaluation; web sessions revoked; keeps 0x90F7.*\n.*protection\s+on stage-wide/,
    );

    const exported = (await cli('accounts', 'export')).stdout;
    expect(exported.split('\n')[0]).toContain('kill-switch,kill-switch-confirm,keep-delegate,kill-switch-web-sessions,kill-switch-dry-run');
    // The dry run is written as the CLI and the docs spell it (on|off), not as a JSON boolean.
    expect(exported.split('\n')[1]).toMatch(/,revoke,off,/);
    expect((await cli('accounts', 'update', ACCOUNT, '--kill-switch', 'off', '--keep-delegate', 'none')).code).toBe(0);
    expect(JSON.parse((await cli('accounts', 'show', ACCOUNT, '--json')).stdout)).toMatchObject({ killSwitch: null, keepDelegates: [] });
    const file = join(dir, 'accounts.csv');
    await writeFile(file, exported);
    expect((await cli('accounts', 'import', file)).code).toBe(0);
    expect(JSON.parse((await cli('accounts', 'show', ACCOUNT, '--json')).stdout)).toMatchObject({
      killSwitch: 30,
      killSwitchConfirm: 'now',
      keepDelegates: [KEPT],
      killSwitchWebSessions: 'revoke',
      killSwitchDryRun: false,
    });
  });

  it('accounts show and status print the kill switch state; accounts rearm re-arms a fired one, audited', async () => {
    const address = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc';
    const { cli, repos } = await withKillSwitch(address, '25');
    expect((await cli('accounts', 'show', address)).stdout).toMatch(/kill switch now\s+armed \(not evaluated yet\)/);
    const firedAt = Date.UTC(2030, 0, 7, 12);
    await repos.alerts.compareAndSet(address, 'kill-switch', null, { status: 'fired', at: firedAt });
    expect((await cli('accounts', 'show', address)).stdout).toContain(`FIRED at ${new Date(firedAt).toISOString()}`);
    expect(JSON.parse((await cli('accounts', 'show', address, '--json')).stdout)).toMatchObject({ killSwitchState: { status: 'fired', at: firedAt } });
    expect((await cli('status', address)).stdout).toContain(`sentinel accounts rearm ${address}`);

    const rearm = await cli('accounts', 'rearm', address);
    expect(rearm).toMatchObject({ code: 0, stderr: '' });
    // What it replaced, in the words of accounts show (not the stored status).
    expect(rearm.stdout).toBe(`kill switch of ${address} re-armed (was: FIRED at ${new Date(firedAt).toISOString()}; audited)\n`);
    expect((await cli('accounts', 'show', address)).stdout).toMatch(/kill switch now\s+armed\n/);
    const audit = await repos.audit.listForAccount(address, 10);
    expect(audit.find((r) => r.action === 'kill-switch-rearm')).toMatchObject({ outcome: 'rearmed', message: 'kill switch re-armed (was fired)' });
    expect((await cli('accounts', 'rearm', '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65')).code).toBe(1);
  });

  it('accounts rearm on a firing whose keys are being revoked says so in words, and that re-arming stops no revocation already queued', async () => {
    const address = '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955';
    const { cli, repos } = await withKillSwitch(address, '10');
    const firedAt = Date.UTC(2030, 0, 7, 12);
    await repos.alerts.compareAndSet(address, 'kill-switch', null, { status: 'revoking', at: firedAt, decisionId: 'd-queued-1' });
    const rearm = await cli('accounts', 'rearm', address);
    expect(rearm).toMatchObject({ code: 0, stderr: '' });
    expect(rearm.stdout).toBe(
      `kill switch of ${address} re-armed (was: firing since ${new Date(firedAt).toISOString()}: keys being revoked (decision d-queued-1); audited); the keys already queued are still being revoked\n`,
    );
    expect(rearm.stdout).not.toContain('was revoking');
  });

  it('accounts rearm on a kill switch that has not fired says there is nothing to re-arm, exit 0, writing and auditing nothing', async () => {
    const address = '0x976EA74026E726554dB657fA54763abd0C3a0aa9';
    const { cli, repos } = await withKillSwitch(address, '25');
    const pendingSince = Date.UTC(2030, 0, 7, 12);
    const states = [null, { status: 'idle' }, { status: 'pending', since: pendingSince }, { status: 'baseline' }] as const;
    for (const state of states) {
      if (state !== null) {
        const stored = await repos.alerts.get(address, 'kill-switch');
        expect((await repos.alerts.compareAndSet(address, 'kill-switch', stored?.version ?? null, state)).kind).toBe('written');
      }
      const before = await repos.alerts.get(address, 'kill-switch');
      const rearm = await cli('accounts', 'rearm', address);
      expect(rearm, JSON.stringify(state)).toMatchObject({ code: 0, stderr: '' });
      expect(rearm.stdout).toMatch(new RegExp(`^kill switch of ${address} has not fired: nothing to re-arm \\(now: `));
      expect(rearm.stdout).not.toContain('re-armed');
      expect(await repos.alerts.get(address, 'kill-switch')).toEqual(before);
    }
    expect((await cli('accounts', 'rearm', address)).stdout).toContain(`now: held: the level was already reached when tracking began`);
    expect((await repos.audit.listForAccount(address, 10)).filter((r) => r.action === 'kill-switch-rearm')).toEqual([]);
  });

  it('refuses a bad level or mode with a message naming the option, writing nothing', async () => {
    const cli = cliRunner({ SENTINEL_TABLE_PREFIX: tables.prefix }, Date.now, join(await mkdtemp(join(tmpdir(), 'killswitch-')), 'protection'));
    for (const [option, value] of [
      ['--kill-switch', '130'],
      ['--kill-switch-confirm', 'later'],
      ['--kill-switch-web-sessions', 'maybe'],
      ['--kill-switch-dry-run', 'perhaps'],
      ['--keep-delegate', '0x12'],
    ] as const) {
      const run = await cli('accounts', 'add', '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65', '--email', 'x@example.com', option, value);
      expect(run.code, option).toBe(2);
      expect(run.stderr).toContain(option.slice(2));
    }
    expect((await cli('accounts', 'show', '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65')).code).toBe(1);
  });

  it('an empty value (--keep-delegate \'\') is a usage error naming the option and its "none", not \'nothing to update\'; nothing is written; "" still removes a label', async () => {
    const address = '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f';
    const cli = cliRunner({ SENTINEL_TABLE_PREFIX: tables.prefix }, Date.now, join(await mkdtemp(join(tmpdir(), 'killswitch-')), 'protection'));
    expect((await cli('accounts', 'add', address, '--email', 'desk@example.com', '--label', 'kept', '--kill-switch', '10', '--keep-delegate', KEPT)).code).toBe(
      0,
    );
    const before = (await cli('accounts', 'show', address, '--json')).stdout;
    for (const [args, message] of [
      [['--keep-delegate', ''], '--keep-delegate: the value is empty; give a value, or "none" clears the list'],
      [['--label', 'renamed', '--keep-delegate', ' '], '--keep-delegate: the value is empty; give a value, or "none" clears the list'],
      [['--drawdown', ''], '--drawdown: the value is empty; give a value, or "none" turns the levels off'],
      [['--kill-switch', ''], '--kill-switch: the value is empty; give a value, or "off" turns it off'],
      [['--add-email', ''], '--add-email: the value is empty; give a value'],
    ] as const) {
      const run = await cli('accounts', 'update', address, ...args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).not.toContain('nothing to update');
    }
    expect((await cli('accounts', 'add', '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65', '--email', 'x@example.com', '--keep-delegate', '')).code).toBe(2);
    expect((await cli('accounts', 'show', address, '--json')).stdout).toBe(before);
    expect((await cli('accounts', 'update', address, '--keep-delegate', 'none', '--label', '')).code).toBe(0);
    expect(JSON.parse((await cli('accounts', 'show', address, '--json')).stdout)).toMatchObject({ keepDelegates: [], label: null, killSwitch: 10 });
  });
});
