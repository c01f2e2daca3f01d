import { readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../../local/childProcess';
import { SimControlClient } from '../../../local/sim';
import { deriveKey } from '../../../local/sim/keys';
import { waitFor } from '../../support/waitFor';
import { descendants, npmStartsOfFile, PROBE_EVERY_MS, QUICK_PROBE_EVERY_MS, type NpmStartRun } from '../../support/local/npmStartProcess';
import { npmStartTerminal } from '../../support/local/npmStartTerminal';

const STEADY = deriveKey(1, 'account:demo-steady').address;

type Got = { kind: string; status: number; body: unknown };

/**
 * One `npm start -- --in-memory --fast` (DynamoDB Local in memory) for the whole file, its tests in
 * order: the demo, then the run's own protection switch, then the stop. The state folder holds what
 * an earlier normal run left (protection on), and no page port is set, so the run picks free ones.
 */
describe('npm start --in-memory --fast', () => {
  const startNpm = npmStartsOfFile();
  let t: Awaited<ReturnType<typeof npmStartTerminal>>;
  let run: NpmStartRun;
  let saved: string;
  /** The run's own protection folder, as `protection status` names it. */
  let runFolder = '';

  beforeAll(async () => {
    t = await npmStartTerminal();
    for (const key of ['SENTINEL_PORT', 'SENTINEL_INBOX_PORT', 'SENTINEL_CHANNELS_PORT']) delete t.env[key];
    saved = join(t.stateDir, 'protection');
    await writeFile(saved, 'on\n');
    run = startNpm(t.env, ['--in-memory', '--fast']);
    await run.ready();
  }, 180_000);

  /** What the run's chat receivers were sent (the `channels:` line's server). */
  const chat = async (): Promise<Got[]> => {
    const channelsView = /^channels:\s+(\S+)/m.exec(run.output())?.[1] ?? '';
    return (await (await fetch(channelsView.replace(/\/channels$/, '/received'))).json()) as Got[];
  };

  it('runs the demo: three daily reports, an expiry warning and the drawdown alert in the inbox and every demo channel, no alert for the withdrawal', async () => {
    const output = run.output();
    for (const label of ['inbox:', 'links:', 'simulator:']) expect(output).toMatch(new RegExp(`^${label}\\s+http://127\\.0\\.0\\.1:\\d+`, 'm'));
    const inbox = /^inbox:\s+(\S+)/m.exec(output)?.[1] ?? '';
    const services = JSON.parse(await readFile(join(t.stateDir, 'services.json'), 'utf8')) as { childPids: number[] };
    expect(services.childPids.length).toBe(2);

    type Mail = { subject: string };
    const subjects = async () => ((await (await fetch(new URL('store', inbox))).json()) as { emails: Mail[] }).emails.map((m) => m.subject);
    const seen = await waitFor(
      'the demo emails',
      async () => {
        const all = await subjects();
        // Reports go through the report queue at the mail rate: wait for all three, not only the first.
        const done = all.filter((s) => s.startsWith('Daily report')).length >= 3 && all.some((s) => /Drawdown 20% reached on demo-drawdown/.test(s));
        return done ? all : undefined;
      },
      150_000,
      PROBE_EVERY_MS,
    );
    expect(seen.filter((s) => s.startsWith('Daily report'))).toHaveLength(3);
    expect(seen.some((s) => /trading-bot.*expires/.test(s))).toBe(true);
    expect(seen.some((s) => /demo-withdrawal/.test(s) && /Drawdown/.test(s))).toBe(false);

    // The demo channels: the drawdown alert lands in the local Slack, Discord, Telegram and PagerDuty receivers too.
    expect(/^channels:\s+(\S+)/m.exec(output)?.[1] ?? '').toMatch(/^http:\/\/127\.0\.0\.1:\d+\/channels$/);
    const kinds = await waitFor(
      'the drawdown alert in every demo channel',
      async () => {
        const got = (await chat()).filter((r) => r.status < 300 && /Drawdown/.test(JSON.stringify(r.body)));
        const found = new Set(got.map((r) => r.kind));
        return ['slack', 'discord', 'telegram', 'pagerduty'].every((k) => found.has(k)) ? found : undefined;
      },
      60_000,
      QUICK_PROBE_EVERY_MS,
    );
    expect([...kinds].sort()).toEqual(['discord', 'pagerduty', 'slack', 'telegram']);
  }, 240_000);

  it('keeps a protection switch of its own: off at start whatever a normal run saved, the one its stack and a second terminal use, never written to the state folder', async () => {
    const control = new SimControlClient((await t.services()).SIM_CONTROL_URL);

    const status = t.cli(tmpdir(), 'protection', 'status');
    expect(status.code, status.stderr).toBe(0);
    const location = /^protection off \((.+)\)$/m.exec(status.stdout)?.[1] ?? '';
    expect(location, status.stdout).not.toBe('');
    expect(location.startsWith(t.stateDir)).toBe(false);
    runFolder = dirname(location);
    expect((await stat(runFolder)).mode & 0o077, "the run's folder is the owner's alone").toBe(0);

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
        (await chat()).some((r) => /intruder-1/.test(JSON.stringify(r.body)) && /automatic protection is off/.test(JSON.stringify(r.body))) ? true : undefined,
      90_000,
      QUICK_PROBE_EVERY_MS,
    );
    expect(await first.onChain()).toBe(true);

    // A second terminal turns the run's switch on, and the running stack acts on it.
    const on = t.cli(tmpdir(), 'protection', 'on');
    expect(on.stdout).toBe('protection off → on (audited)\n');
    const second = await intruder('intruder-2');
    await waitFor('intruder-2 revoked', async () => ((await second.onChain()) ? undefined : true), 90_000, QUICK_PROBE_EVERY_MS);

    const off = t.cli(tmpdir(), 'protection', 'off');
    expect(off.stdout).toBe('protection on → off (audited)\n');
    expect(await readFile(saved, 'utf8'), 'the saved switch is untouched').toBe('on\n');
  }, 240_000);

  it("stops within 5 s of SIGTERM, leaving nothing: no DynamoDB Local, SES or node process, no services file, no run's protection folder", async () => {
    const services = JSON.parse(await readFile(join(t.stateDir, 'services.json'), 'utf8')) as { childPids: number[] };
    const tree = await descendants(run.child.pid ?? 0);
    expect(tree).toEqual(expect.arrayContaining(services.childPids));
    const signalledAt = Date.now();
    run.child.kill('SIGTERM');
    const code = await Promise.race([run.exited, new Promise<'late'>((r) => setTimeout(() => r('late'), 5_000))]);
    expect(code, 'npm start must exit within 5 s of SIGTERM').not.toBe('late');
    const remaining = async () => {
      const alive = tree.filter((p) => isProcessAlive(p));
      return Promise.all(alive.map(async (p) => `${p}: ${(await readFile(`/proc/${p}/cmdline`, 'utf8').catch(() => '')).replace(/\0/g, ' ')}`));
    };
    await waitFor(
      'the process tree to end',
      async () => ((await remaining()).length === 0 ? true : undefined),
      Math.max(500, 5_000 - (Date.now() - signalledAt)),
    ).catch(async (error: unknown) => {
      throw new Error(`${String(error)}; still running: ${(await remaining()).join('; ')}`);
    });
    await expect(readFile(join(t.stateDir, 'services.json'))).rejects.toThrow();
    expect(runFolder).not.toBe('');
    await expect(stat(runFolder), "the run's folder is removed at stop").rejects.toThrow();
  });
});
