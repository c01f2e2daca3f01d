import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isProcessAlive } from '../../../../local/childProcess';
import { receiversPerFile } from '../../../support/channels/receiversPerFile';
import { startSimulator } from '../../../../local/sim';
import { SimControlClient } from '../../../../local/sim/controlClient';
import { cliRunner } from '../../../support/cli/cliHarness';
import { CALM } from '../../../support/collect/pipelineHarness';
import { sesStore } from '../../../support/sesStore';
import { testTables } from '../../../support/testTables';
import { waitFor } from '../../../support/waitFor';

const run = randomUUID().slice(0, 8);
/**
 * How far the chain's clock and the setup's CLI lag real time. The setup's dispatch cursor and first
 * polls are then older than the slot `serve` finds due as it starts, so it polls at once instead of a
 * minute later; and a drop moved into the chain's past (its clock advanced) shows in that poll.
 */
const LAG_MS = 90_000;
const SLACK_PATH = `T0SERVE/B0${run}/restart`;
const SLACK_VAR = `E2E_SERVE_SLACK_${run}`;

/** `sentinel serve` as a process of its own, with its output kept. */
function startServe(env: NodeJS.ProcessEnv) {
  const child: ChildProcess = spawn(process.execPath, ['bin/sentinel.js', 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => void (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => void (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/**
 * `sentinel serve` interrupted while it sends, and started again: the chain simulator over HTTP,
 * DynamoDB Local, local SES and a local Slack whose answer is slow, `serve` as a real process on a
 * state folder of its own. Two accounts cross a drawdown level in the same poll; SIGTERM comes
 * while the first alert's Slack message is under way and the second waits behind it (Slack takes
 * one message a second). After the restart each alert has arrived exactly once, by email and in Slack.
 */
describe('sentinel serve stopped during a send and started again', () => {
  const tables = testTables();
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  const receivers = receiversPerFile();
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    sim = await startSimulator({ seed: 29, historyDays: 5, clock: { startMs: Date.now() - LAG_MS } });
    process.env[SLACK_VAR] = receivers.slackUrl(SLACK_PATH);
  });
  afterAll(async () => {
    for (const child of children) if (child.pid && isProcessAlive(child.pid)) child.kill('SIGKILL');
    await sim?.close();
    delete process.env[SLACK_VAR];
  });

  it('each alert arrives once by email and once in Slack: the send under way finished, the one queued behind it ran after the restart', async () => {
    const env: Record<string, string> = {
      SENTINEL_TABLE_PREFIX: tables.prefix,
      ROCKET_NODE_URL: sim.nodeUrl,
      ROCKET_INDEXER_URL: sim.indexerUrl,
      BACKFILL_DAYS: '1',
    };
    const cli = cliRunner(env, () => Date.now() - LAG_MS);
    const control = new SimControlClient(sim.controlUrl);
    const desk = `desk+${run}@example.com`;
    const accounts = await Promise.all(['serve-a', 'serve-b'].map((label) => control.createAccount({ label, profile: CALM } as never)));
    const channel = await cli('channels', 'add', `serve-slack-${run}`, '--type', 'slack', '--secret', `env:${SLACK_VAR}`, '--categories', 'drawdown');
    expect(channel.code, channel.stderr).toBe(0);
    for (const [i, account] of accounts.entries()) {
      const added = await cli(
        'accounts',
        'add',
        account.address,
        '--email',
        desk,
        '--label',
        `serve-${i}`,
        '--interval',
        '1m',
        '--drawdown',
        '5,20',
        '--delegate-watch',
        'none',
        '--add-channel',
        `serve-slack-${run}`,
      );
      expect(added.code, added.stderr).toBe(0);
    }

    const stateDir = await mkdtemp(join(tmpdir(), 'sentinel-serve-'));
    const serveEnv: NodeJS.ProcessEnv = {
      ...process.env,
      ...env,
      DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
      SES_ENDPOINT: inject('sesEndpoint'),
      SENTINEL_STATE_DIR: stateDir,
      SENTINEL_LINK_SECRET: 'test-link-secret-0123456789abcdef0123456789',
      MAIL_FROM: 'sentinel@example.com',
      NO_COLOR: '1',
    };
    // The first poll of each account (its history, no breach yet), from the CLI before serve starts: one
    // dispatch-and-collect cycle, so the schedule and the dispatch cursor are written as serve would.
    const collected = await cli('collect');
    expect(collected.code, collected.stderr).toBe(0);
    const listed = JSON.parse((await cli('accounts', 'list', '--json')).stdout) as { status: string }[];
    expect(listed).toHaveLength(2);
    expect(listed.map((a) => a.status)).not.toContain('new');

    // Both accounts fall 8%, shown from the chain's next whole minute: a minute on the chain's clock (still behind
    // real time) makes it the past, so serve's first poll sees it. The first Slack message is answered only after 1.5 s.
    receivers.script(SLACK_PATH, [{ status: 200, body: 'ok', delayMs: 1_500 }]);
    for (const account of accounts) await control.drawdown(account.address, { pct: 8 });
    await control.advanceClock(61_000);
    const first = startServe(serveEnv);
    children.push(first.child);
    await waitFor('serve to start', () => (first.output().includes('serving;') ? true : undefined), 60_000);
    await waitFor('the first alert to be under way in Slack', () => (receivers.unanswered() > 0 ? true : undefined), 150_000);
    first.child.kill('SIGTERM');
    expect(await first.exited, first.output()).toBe(0);
    expect(first.output()).toMatch(/stopped: work in flight finished; \d+ message\(s\) stay queued and run on the next start/);

    const second = startServe(serveEnv);
    children.push(second.child);
    const slackAlerts = () => receivers.received.filter((r) => r.destination === SLACK_PATH && r.status === 200 && /Drawdown/.test(r.body));
    const emails = async () => (await sesStore({ to: desk })).filter((m) => /Drawdown 5% reached/.test(m.subject));
    await waitFor('both alerts in Slack', () => (slackAlerts().length >= 2 ? true : undefined), 120_000);
    // Each look reads the whole shared inbox: once a second.
    await waitFor('both alerts by email', async () => ((await emails()).length >= 2 ? true : undefined), 60_000, 1_000);
    // Time for a duplicate to show up, were one on its way (a redelivery comes back within seconds locally).
    await new Promise((r) => setTimeout(r, 6_000));
    second.child.kill('SIGTERM');
    expect(await second.exited, second.output()).toBe(0);

    const labels = (texts: string[]) => texts.map((t) => /serve-(\d)/.exec(t)?.[1]).sort();
    expect(labels(slackAlerts().map((r) => r.body)), 'each alert once in Slack').toEqual(['0', '1']);
    expect(labels((await emails()).map((m) => m.subject)), 'each alert once by email').toEqual(['0', '1']);
    expect(first.output()).not.toMatch(/ECONNREFUSED/);
  }, 420_000);
});
