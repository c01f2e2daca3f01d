import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../../local/childProcess';
import { freePort } from '../../../local/freePort';
import { SimControlClient } from '../../../local/sim';
import { deriveKey } from '../../../local/sim/keys';
import { interruptNpmStart, startNpmStart, type NpmStartRun } from '../../support/local/npmStartProcess';
import { waitFor } from '../../support/waitFor';

const REPO = resolve('.');
const BIN = join(REPO, 'bin/sentinel.js');
const STEADY = deriveKey(1, 'account:demo-steady').address;
const TRADING_BOT = deriveKey(1, `delegate:${STEADY}:trading-bot`).address;

type Got = { kind: string; status: number; body: unknown };

/** The commands of the README's "A CLI session" block, continuation lines joined, comments dropped. */
async function readmeWalkthrough(): Promise<{ commands: string[]; elsewhere: string }> {
  const readme = await readFile(join(REPO, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## A CLI session'));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const commands = block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .filter((line) => line.startsWith('$ '))
    .map((line) =>
      line
        .slice(2)
        .replace(/\s+#.*$/, '')
        .trim(),
    );
  const elsewhere = /`(SENTINEL_STATE_DIR=<project folder>\/\.sentinel [^`]+)`/.exec(section)?.[1] ?? '';
  return { commands, elsewhere };
}

describe('npm start with its data kept, and a second terminal', () => {
  const runs: NpmStartRun[] = [];
  afterAll(() => {
    for (const run of runs) if (run.child.pid && isProcessAlive(run.child.pid)) process.kill(-run.child.pid, 'SIGKILL');
  });

  it('the CLI reaches the demo channels, the README walkthrough runs as written, and a restart goes on with the same chain: a revoked key stays revoked, no false alert', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'sentinel-kept-'));
    const ports = { SENTINEL_PORT: await freePort(), SENTINEL_INBOX_PORT: await freePort(), SENTINEL_CHANNELS_PORT: await freePort() };
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SENTINEL_STATE_DIR: stateDir,
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
    };
    for (const key of [
      'DYNAMODB_ENDPOINT',
      'SES_ENDPOINT',
      'ROCKET_NODE_URL',
      'ROCKET_INDEXER_URL',
      'PUBLIC_BASE_URL',
      'TELEGRAM_API_URL',
      'PAGERDUTY_EVENTS_URL',
    ]) {
      delete env[key];
    }
    for (const key of Object.keys(env)) if (key.startsWith('SENTINEL_DEMO_')) delete env[key];
    /** The CLI in a second terminal: only the state folder tells it where the services are. */
    const cli = (cwd: string, ...args: string[]) => {
      const run = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8', timeout: 120_000 });
      return { code: run.status, stdout: run.stdout, stderr: run.stderr };
    };
    const shell = (cwd: string, command: string) => {
      const run = spawnSync('sh', ['-c', command], { cwd, env, encoding: 'utf8', timeout: 120_000 });
      return { code: run.status, stdout: run.stdout, stderr: run.stderr };
    };
    /** When demo-steady was last polled (`status`: `last poll     ok at <ISO>`). */
    const lastPollAt = (): number | undefined => {
      const at = /^last poll\s+ok at (\S+)/m.exec(cli(tmpdir(), 'status', STEADY).stdout)?.[1];
      return at === undefined ? undefined : Date.parse(at);
    };
    const chat = async (): Promise<Got[]> => (await (await fetch(`http://127.0.0.1:${ports.SENTINEL_CHANNELS_PORT}/received`)).json()) as Got[];
    const subjects = async () =>
      ((await (await fetch(`http://127.0.0.1:${ports.SENTINEL_INBOX_PORT}/store`)).json()) as { emails: { subject: string }[] }).emails.map((m) => m.subject);
    const services = async () => JSON.parse(await readFile(join(stateDir, 'services.json'), 'utf8')) as { SIM_CONTROL_URL: string };

    const first = startNpmStart(env, ['--fast']);
    runs.push(first);
    await first.ready();
    await waitFor(
      'the demo emails',
      async () => {
        const all = await subjects();
        return all.some((s) => /Drawdown 20% reached on demo-drawdown/.test(s)) && all.some((s) => /trading-bot.*expires/.test(s)) ? true : undefined;
      },
      150_000,
    );
    // The file the CLI reads the demo channels' values from is the owner's alone.
    expect((await stat(join(stateDir, 'services.json'))).mode & 0o077).toBe(0);
    const control = new SimControlClient((await services()).SIM_CONTROL_URL);

    // 1. The demo channels from a second terminal: a test message, and an alert a `collect` raises.
    const slackBefore = (await chat()).filter((r) => r.kind === 'slack').length;
    const tested = cli(tmpdir(), 'channels', 'test', 'demo-slack');
    expect(tested.stderr).toBe('');
    expect(tested.code).toBe(0);
    expect(tested.stdout).toMatch(/^channel demo-slack: delivered/);
    expect((await chat()).filter((r) => r.kind === 'slack' && r.status < 300).length).toBeGreaterThan(slackBefore);

    const probe = deriveKey(99, 'account:probe').address;
    // Polled only when the command says so: a curve a day, no delegate watch in between.
    const added = cli(
      tmpdir(),
      'accounts',
      'add',
      probe,
      '--email',
      'probe@example.com',
      '--label',
      'probe',
      '--interval',
      '1d',
      '--delegate-watch',
      'none',
      '--add-channel',
      'demo-slack',
    );
    expect(added.code, added.stderr).toBe(0);
    expect(cli(tmpdir(), 'collect', '--account', probe).code).toBe(0);
    await control.addDelegate(probe, { name: 'probe-bot' });
    const collected = cli(tmpdir(), 'collect', '--account', probe);
    expect(collected.code, collected.stderr).toBe(0);
    expect(`${collected.stdout}${collected.stderr}`).not.toMatch(/ChannelConfigError|failed/);
    const probeMessages = (await chat()).filter((r) => r.kind === 'slack' && r.status < 300 && /probe-bot/.test(JSON.stringify(r.body)));
    expect(probeMessages.length, 'the new-key notice the CLI raised, in the demo Slack').toBeGreaterThanOrEqual(1);

    // 3. The README's CLI session, each command as written, in the project folder; then the form for another folder.
    const { commands, elsewhere } = await readmeWalkthrough();
    expect(commands.length).toBeGreaterThanOrEqual(8);
    for (const command of commands) {
      const ran = shell(REPO, command);
      expect(ran.code, `${command}\n${ran.stdout}\n${ran.stderr}`).toBe(0);
      if (command.includes('link revoke')) expect(ran.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/revoke\?token=/);
    }
    expect(elsewhere).not.toBe('');
    const away = shell(tmpdir(), elsewhere.replaceAll('<project folder>/.sentinel', stateDir).replaceAll('<project folder>', REPO));
    expect(away.code, away.stderr).toBe(0);
    expect(away.stdout).toContain(STEADY);

    // 2. Revoke the demo's trading-bot on the chain, as the exchange's web client would (under --fast a link's
    // consumed token is older than the signer's 60 s on the simulated clock before it is signed), and let a poll see it.
    // (Once more if the idle keep-alive connection was closed under the request.)
    await control.removeDelegate(STEADY, TRADING_BOT).catch(async () => {
      if ((await control.account(STEADY)).delegates.some((d) => d.address === TRADING_BOT)) await control.removeDelegate(STEADY, TRADING_BOT);
    });
    const { nowMs: revokedAt } = await control.clock();
    await waitFor(
      'a poll after the revocation',
      async () => {
        const at = lastPollAt();
        return at !== undefined && at > revokedAt + 60_000 ? true : undefined;
      },
      120_000,
    );
    const before = await subjects();
    const count = (all: string[], pattern: RegExp) => all.filter((s) => pattern.test(s)).length;
    expect(await interruptNpmStart(first)).not.toBe('late');

    const second = startNpmStart(env, ['--fast']);
    runs.push(second);
    await second.ready();
    expect(second.output()).toMatch(/^simulator:.*the chain goes on from the last run/m);
    const restarted = new SimControlClient((await services()).SIM_CONTROL_URL);
    expect((await restarted.account(STEADY)).delegates.map((d) => d.address)).not.toContain(TRADING_BOT);
    // Three polls of the demo accounts after the restart (a minute apart on the simulated clock).
    const { nowMs: restartedAt } = await restarted.clock();
    await waitFor(
      'three polls after the restart',
      async () => {
        const at = lastPollAt();
        return at !== undefined && at > restartedAt + 3 * 60_000 ? true : undefined;
      },
      120_000,
    );
    const after = await subjects();
    expect(count(after, /New API key “trading-bot”/), after.join('\n')).toBe(count(before, /New API key “trading-bot”/));
    expect(count(after, /Drawdown \d+% reached on demo-drawdown/), after.join('\n')).toBe(count(before, /Drawdown \d+% reached on demo-drawdown/));
    expect(await interruptNpmStart(second)).not.toBe('late');
  }, 600_000);
});
