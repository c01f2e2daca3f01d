import { readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SimControlClient } from '../../../local/sim';
import { deriveKey } from '../../../local/sim/keys';
import { waitFor } from '../../support/waitFor';
import { interruptNpmStart, npmStartsOfFile } from '../../support/local/npmStartProcess';
import { npmStartTerminal } from '../../support/local/npmStartTerminal';

const STEADY = deriveKey(1, 'account:demo-steady').address;

describe('npm start --in-memory and the protection switch', () => {
  const startNpm = npmStartsOfFile();

  it('keeps a switch of its own: off at start whatever a normal run saved, the one its stack and a second terminal use, never written to the state folder, gone when it stops', async () => {
    const t = await npmStartTerminal();
    // What an earlier normal run left: protection on.
    const saved = join(t.stateDir, 'protection');
    await writeFile(saved, 'on\n');
    const run = startNpm(t.env, ['--in-memory', '--fast']);
    await run.ready();
    const control = new SimControlClient((await t.services()).SIM_CONTROL_URL);

    const status = t.cli(tmpdir(), 'protection', 'status');
    expect(status.code, status.stderr).toBe(0);
    const location = /^protection off \((.+)\)$/m.exec(status.stdout)?.[1] ?? '';
    expect(location, status.stdout).not.toBe('');
    expect(location.startsWith(t.stateDir)).toBe(false);
    expect((await stat(dirname(location))).mode & 0o077, "the run's folder is the owner's alone").toBe(0);

    const armed = t.cli(tmpdir(), 'accounts', 'update', STEADY, '--revoke-unknown', 'api-keys');
    expect(armed.code, armed.stderr).toBe(0);
    /** Adds an API key nobody announced; whether it is still on the chain. */
    const intruder = async (name: string) => {
      const added = (await control.addDelegate(STEADY, { name })).delegate.address.toLowerCase();
      return { added, onChain: async () => (await control.account(STEADY)).delegates.some((d) => d.address.toLowerCase() === added) };
    };

    // The stack reads the run's switch (off), not the saved one (on): an unknown key is reported, not revoked.
    const first = await intruder('intruder-1');
    await waitFor(
      "intruder-1's notice in a demo chat",
      async () =>
        (await t.chat()).some((r) => /intruder-1/.test(JSON.stringify(r.body)) && /automatic protection is off/.test(JSON.stringify(r.body)))
          ? true
          : undefined,
      90_000,
    );
    expect(await first.onChain()).toBe(true);

    // A second terminal turns the run's switch on, and the running stack acts on it.
    const on = t.cli(tmpdir(), 'protection', 'on');
    expect(on.stdout).toBe('protection off → on (audited)\n');
    const second = await intruder('intruder-2');
    await waitFor('intruder-2 revoked', async () => ((await second.onChain()) ? undefined : true), 90_000);

    const off = t.cli(tmpdir(), 'protection', 'off');
    expect(off.stdout).toBe('protection on → off (audited)\n');
    expect(await readFile(saved, 'utf8'), 'the saved switch is untouched').toBe('on\n');

    expect(await interruptNpmStart(run)).not.toBe('late');
    await expect(stat(dirname(location)), "the run's folder is removed at stop").rejects.toThrow();
  }, 600_000);
});
