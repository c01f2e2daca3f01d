import { spawnSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliProtectionFile } from '../../../local/stateDir';
import { servicesFileOf } from '../../support/local/servicesFile';

/** A state folder whose services file was recorded by `pid` with `more`. */
async function stateOf(pid: number, more: Record<string, unknown> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sentinel-protection-file-'));
  await writeFile(join(dir, 'services.json'), servicesFileOf(pid, more), { mode: 0o600 });
  return dir;
}

describe('the protection switch the CLI uses', () => {
  it("is the running npm start's own when it names one (an --in-memory run's)", async () => {
    const dir = await stateOf(process.pid, { PROTECTION_FILE: '/tmp/sentinel-in-memory-x/protection' });
    expect(await cliProtectionFile(dir)).toBe('/tmp/sentinel-in-memory-x/protection');
  });

  it("is the state folder's without a running npm start, or when the run names none", async () => {
    const stopped = spawnSync(process.execPath, ['-e', '']).pid;
    const dead = await stateOf(stopped, { PROTECTION_FILE: '/tmp/sentinel-in-memory-y/protection' });
    expect(await cliProtectionFile(dead)).toBe(join(dead, 'protection'));
    const older = await stateOf(process.pid);
    expect(await cliProtectionFile(older)).toBe(join(older, 'protection'));
    const none = await mkdtemp(join(tmpdir(), 'sentinel-protection-file-'));
    expect(await cliProtectionFile(none)).toBe(join(none, 'protection'));
  });
});
