import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { servicesFileOf } from '../../support/local/servicesFile';

const BIN = resolve('bin/sentinel.js');

/** The binary run from `cwd` with only `env` besides PATH and HOME: no local stack, no AWS settings or credentials. */
function sentinelIn(cwd: string, env: Record<string, string>, ...args: string[]) {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env['PATH'] ?? '', HOME: cwd, NO_COLOR: '1', AWS_EC2_METADATA_DISABLED: 'true', ...env },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** `npx sentinel` exactly as a user types it in the project folder. */
function sentinel(...args: string[]) {
  const run = spawnSync('npx', ['--no-install', 'sentinel', ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * The binary `npx sentinel` runs (the first test runs it through `npx`), started directly in the project
 * folder: `npx` first loads npm and the project's tree of installed packages, 2-4 s a run here.
 */
function sentinelBin(...args: string[]) {
  return sentinelIn(process.cwd(), { HOME: process.env['HOME'] ?? process.cwd() }, ...args);
}

/** Two runs a test, each bounded at 60 s above: the test's own bound covers both. */
const TWO_RUNS_MS = 120_000;

describe('the sentinel binary', () => {
  it(
    'prints help for the program (`npx sentinel --help`, as typed) and every command, exit 0',
    () => {
      const help = sentinel('--help');
      expect(help.code, help.stderr).toBe(0);
      for (const command of ['accounts', 'collect', 'report', 'status', 'link', 'serve', 'sim']) expect(help.stdout).toContain(command);
      const add = sentinelBin('accounts', 'add', '--help');
      expect(add.code).toBe(0);
      for (const option of ['--email', '--label', '--interval', '--drawdown', '--report-at', '--timezone', '--expiry-warn-days', '--signer']) {
        expect(add.stdout).toContain(option);
      }
    },
    TWO_RUNS_MS,
  );

  it(
    'exits 2 with a one-line reason on bad usage',
    () => {
      const unknown = sentinelBin('no-such-command');
      expect(unknown.code).toBe(2);
      const badAddress = sentinelBin('accounts', 'add', '0x12', '--email', 'x@example.com');
      expect(badAddress.code).toBe(2);
      expect(
        badAddress.stderr
          .trim()
          .split('\n')
          .filter((l) => l.startsWith('sentinel:')),
      ).toEqual(['sentinel: address "0x12" is not a 20-byte hex address']);
    },
    TWO_RUNS_MS,
  );

  describe('outside a project folder', () => {
    const away = mkdtempSync(join(tmpdir(), 'sentinel-elsewhere-'));
    afterAll(() => rmSync(away, { recursive: true, force: true }));

    it('says no local stack was found, where it looked, and how to point at one, instead of an AWS credentials error', () => {
      const run = sentinelIn(away, {}, 'accounts', 'list');
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(`^sentinel: no local stack found: no running \`npm start\` recorded at ${join(away, '.sentinel', 'services.json')} `),
      );
      expect(lines[0]).toContain('SENTINEL_STATE_DIR=<project folder>/.sentinel');
      expect(lines[0]).toContain('SENTINEL_TABLE_PREFIX=sentinel-<stage>-');
      expect(run.stderr).not.toMatch(/Credentials|ProviderError/);
    });

    it('looks where SENTINEL_STATE_DIR says, and takes a stack that stopped for none', () => {
      const state = join(away, 'stopped-stack');
      mkdirSync(state);
      // A pid no process has: the stack that wrote it stopped.
      writeFileSync(join(state, 'services.json'), servicesFileOf(2 ** 22 + 1));
      const run = sentinelIn(away, { SENTINEL_STATE_DIR: state }, 'status', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(new RegExp(`^sentinel: no local stack found: no running \`npm start\` recorded at ${join(state, 'services.json')} `));
    });

    it('pointed at a deployed stage without AWS credentials, says that instead of the SDK error', () => {
      const run = sentinelIn(away, { SENTINEL_TABLE_PREFIX: 'sentinel-devnet-', AWS_REGION: 'eu-west-1' }, 'accounts', 'list');
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^sentinel: no AWS credentials found, and the CLI is pointed at AWS .*set AWS_PROFILE or AWS credentials/);
      expect(run.stderr).not.toContain('CredentialsProviderError');
    });
  });
});
