import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** `npx sentinel` exactly as a user types it in the project folder. */
function sentinel(...args: string[]) {
  const run = spawnSync('npx', ['--no-install', 'sentinel', ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('the sentinel binary', () => {
  it('prints help for the program and every command, exit 0', () => {
    const help = sentinel('--help');
    expect(help.code).toBe(0);
    for (const command of ['accounts', 'collect', 'report', 'status', 'link', 'serve', 'sim']) expect(help.stdout).toContain(command);
    const add = sentinel('accounts', 'add', '--help');
    expect(add.code).toBe(0);
    for (const option of ['--email', '--label', '--interval', '--drawdown', '--report-at', '--timezone', '--expiry-warn-days', '--signer']) {
      expect(add.stdout).toContain(option);
    }
  });

  it('exits 2 with a one-line reason on bad usage', () => {
    const unknown = sentinel('no-such-command');
    expect(unknown.code).toBe(2);
    const badAddress = sentinel('accounts', 'add', '0x12', '--email', 'x@example.com');
    expect(badAddress.code).toBe(2);
    expect(
      badAddress.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('sentinel:')),
    ).toEqual(['sentinel: address "0x12" is not a 20-byte hex address']);
  });
});
