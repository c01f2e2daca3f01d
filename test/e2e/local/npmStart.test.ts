import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findOnPath, isProcessAlive } from '../../../local/childProcess';
import { freePort } from '../../../local/freePort';
import { waitFor } from '../../support/waitFor';
import { descendants } from '../../support/local/npmStartProcess';

describe('npm start', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child?.pid && isProcessAlive(child.pid)) child.kill('SIGKILL');
  });

  it('runs the demo (report, expiry warning, drawdown alert, no alert for a withdrawal) and stops everything on SIGTERM within 5 s', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'sentinel-start-'));
    const env: NodeJS.ProcessEnv = { ...process.env, SENTINEL_STATE_DIR: stateDir };
    for (const key of ['DYNAMODB_ENDPOINT', 'SES_ENDPOINT', 'ROCKET_NODE_URL', 'ROCKET_INDEXER_URL', 'PUBLIC_BASE_URL', 'SENTINEL_PORT']) delete env[key];
    child = spawn('npm', ['start', '--', '--in-memory', '--fast'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (d: Buffer) => void (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => void (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child?.on('exit', (code) => resolve(code)));

    await waitFor('the ready line', async () => (output.includes('ready.') ? true : undefined), 150_000);
    for (const label of ['inbox:', 'links:', 'simulator:']) expect(output).toMatch(new RegExp(`^${label}\\s+http://127\\.0\\.0\\.1:\\d+`, 'm'));
    const inbox = /^inbox:\s+(\S+)/m.exec(output)?.[1] ?? '';
    const services = JSON.parse(await readFile(join(stateDir, 'services.json'), 'utf8')) as { childPids: number[] };
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
    );
    expect(seen.filter((s) => s.startsWith('Daily report'))).toHaveLength(3);
    expect(seen.some((s) => /trading-bot.*expires/.test(s))).toBe(true);
    expect(seen.some((s) => /demo-withdrawal/.test(s) && /Drawdown/.test(s))).toBe(false);

    // The demo channels: the drawdown alert lands in the local Slack, Discord, Telegram and PagerDuty receivers too.
    const channelsView = /^channels:\s+(\S+)/m.exec(output)?.[1] ?? '';
    expect(channelsView).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/channels$/);
    const chat = channelsView.replace(/\/channels$/, '/received');
    type Got = { kind: string; status: number; body: unknown };
    const kinds = await waitFor(
      'the drawdown alert in every demo channel',
      async () => {
        const got = ((await (await fetch(chat)).json()) as Got[]).filter((r) => r.status < 300 && /Drawdown/.test(JSON.stringify(r.body)));
        const found = new Set(got.map((r) => r.kind));
        return ['slack', 'discord', 'telegram', 'pagerduty'].every((k) => found.has(k)) ? found : undefined;
      },
      60_000,
    );
    expect([...kinds].sort()).toEqual(['discord', 'pagerduty', 'slack', 'telegram']);

    const tree = await descendants(child.pid ?? 0);
    expect(tree).toEqual(expect.arrayContaining(services.childPids));
    const signalledAt = Date.now();
    child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<'late'>((r) => setTimeout(() => r('late'), 5_000))]);
    expect(code, 'npm start must exit within 5 s of SIGTERM').not.toBe('late');
    // Everything it started is gone: no orphan DynamoDB Local, SES or node process.
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
    await expect(readFile(join(stateDir, 'services.json'))).rejects.toThrow();
  }, 360_000);

  it('without Java: runs the demo on the embedded store (said at start), stops on Ctrl-C within 5 s, and a restart keeps the data, the inbox, the channels page and their ports', async () => {
    // A PATH with node, npm, sh and setpriv only, no JAVA_HOME: a machine with Node and no Java.
    const bin = await mkdtemp(join(tmpdir(), 'sentinel-nojava-bin-'));
    for (const tool of ['node', 'npm', 'sh', 'setpriv']) {
      const found = findOnPath(tool);
      if (found) await symlink(found, join(bin, tool));
    }
    const stateDir = await mkdtemp(join(tmpdir(), 'sentinel-embedded-'));
    const ports = { SENTINEL_PORT: await freePort(), SENTINEL_INBOX_PORT: await freePort(), SENTINEL_CHANNELS_PORT: await freePort() };
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: bin,
      SENTINEL_STATE_DIR: stateDir,
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
    };
    for (const key of ['JAVA_HOME', 'DYNAMODB_ENDPOINT', 'SES_ENDPOINT', 'ROCKET_NODE_URL', 'ROCKET_INDEXER_URL', 'PUBLIC_BASE_URL']) delete env[key];
    /** `npm start --fast` in a process group of its own, as a terminal runs it (Ctrl-C signals the whole group). */
    const start = () => {
      const started = spawn('npm', ['start', '--', '--fast'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      child = started;
      let output = '';
      started.stdout?.on('data', (d: Buffer) => void (output += d.toString()));
      started.stderr?.on('data', (d: Buffer) => void (output += d.toString()));
      const exited = new Promise<number | null>((resolve) => started.on('exit', (code) => resolve(code)));
      return { started, exited, output: () => output };
    };
    /** Ctrl-C: SIGINT to the whole process group; everything it started is gone within 5 s. */
    const interrupt = async (run: ReturnType<typeof start>) => {
      const tree = await descendants(run.started.pid ?? 0);
      const signalledAt = Date.now();
      process.kill(-(run.started.pid ?? 0), 'SIGINT');
      const code = await Promise.race([run.exited, new Promise<'late'>((r) => setTimeout(() => r('late'), 5_000))]);
      expect(code, `npm start must exit within 5 s of Ctrl-C:\n${run.output()}`).not.toBe('late');
      await waitFor(
        'the process tree to end',
        async () => (tree.every((p) => !isProcessAlive(p)) ? true : undefined),
        Math.max(500, 5_000 - (Date.now() - signalledAt)),
      );
    };
    type Got = { kind: string; status: number; body: unknown };
    const chat = async (): Promise<Got[]> => (await (await fetch(`http://127.0.0.1:${ports.SENTINEL_CHANNELS_PORT}/received`)).json()) as Got[];
    const subjects = async () =>
      ((await (await fetch(`http://127.0.0.1:${ports.SENTINEL_INBOX_PORT}/store`)).json()) as { emails: { subject: string }[] }).emails.map((m) => m.subject);

    const first = start();
    await waitFor('the ready line', async () => (first.output().includes('ready.') ? true : undefined), 150_000).catch((error: unknown) => {
      throw new Error(`${String(error)}; output:\n${first.output()}`);
    });
    expect(first.output()).toMatch(
      /^dynamodb:\s+http:\/\/127\.0\.0\.1:\d+\s+embedded store \(dynalite, in this process, data in .*dynalite\): no Java 17 for DynamoDB Local/m,
    );
    expect(first.output()).toMatch(new RegExp(`^links:\\s+http://127\\.0\\.0\\.1:${ports.SENTINEL_PORT}\\b`, 'm'));
    const seen = await waitFor(
      'the demo emails and the drawdown alert in the chats',
      async () => {
        const all = await subjects();
        const alerted = (await chat()).some((r) => r.kind === 'discord' && r.status < 300 && /Drawdown/.test(JSON.stringify(r.body)));
        return all.filter((s) => s.startsWith('Daily report')).length >= 3 && all.some((s) => /Drawdown \d+% reached on demo-drawdown/.test(s)) && alerted
          ? all
          : undefined;
      },
      180_000,
    );
    expect(seen.some((s) => /trading-bot.*expires/.test(s))).toBe(true);
    await interrupt(first);
    expect(first.output()).toMatch(/^stopped: /m);
    expect(first.output()).not.toMatch(/ECONNREFUSED|notification to be retried/);

    const second = start();
    await waitFor('the ready line again', async () => (second.output().includes('ready.') ? true : undefined), 150_000).catch((error: unknown) => {
      throw new Error(`${String(error)}; first run:\n${first.output()}\nsecond run:\n${second.output()}`);
    });
    for (const [label, port] of [
      ['links', ports.SENTINEL_PORT],
      ['inbox', ports.SENTINEL_INBOX_PORT],
      ['channels', ports.SENTINEL_CHANNELS_PORT],
    ] as const) {
      expect(second.output(), label).toMatch(new RegExp(`^${label}:\\s+http://127\\.0\\.0\\.1:${port}\\b`, 'm'));
    }
    // What the first run received is still in the inbox and on the channels page; the accounts are still tracked.
    const kept = await subjects();
    for (const subject of seen) expect(kept, subject).toContain(subject);
    expect((await chat()).some((r) => r.kind === 'discord' && /Drawdown/.test(JSON.stringify(r.body)))).toBe(true);
    expect(second.output()).not.toMatch(/demo: sent 3 daily report/);
    await interrupt(second);
  }, 600_000);
});
