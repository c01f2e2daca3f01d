import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../../local/childProcess';

/** Every descendant of `pid`, from /proc (Linux). */
async function descendants(pid: number): Promise<number[]> {
  const children = new Map<number, number[]>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

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
});
