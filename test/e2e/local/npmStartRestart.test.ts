import { beforeAll, describe, expect, it } from 'vitest';
import { SimControlClient } from '../../../local/sim';
import { deriveKey } from '../../../local/sim/keys';
import { interruptNpmStart, npmStartsOfFile, PROBE_EVERY_MS, QUICK_PROBE_EVERY_MS, type NpmStartRun } from '../../support/local/npmStartProcess';
import { npmStartTerminal } from '../../support/local/npmStartTerminal';
import { waitFor } from '../../support/waitFor';

const STEADY = deriveKey(1, 'account:demo-steady').address;
const TRADING_BOT = deriveKey(1, `delegate:${STEADY}:trading-bot`).address;

/**
 * `npm start -- --fast` on a machine without Java (the embedded store), stopped with Ctrl-C and
 * started again on the same state folder: its tests run in order on the two runs.
 */
describe('npm start without Java, stopped and started again on its kept data', () => {
  const startNpm = npmStartsOfFile();
  let t: Awaited<ReturnType<typeof npmStartTerminal>>;
  let first: NpmStartRun;
  /** The inbox when the first run stopped. */
  let seen: string[] = [];
  const count = (all: string[], pattern: RegExp) => all.filter((s) => pattern.test(s)).length;
  /** When demo-steady was last polled, as `status` shows it (`last poll     ok at <ISO>`). */
  const lastPollAt = () => t.lastPollAt(STEADY);

  beforeAll(async () => {
    t = await npmStartTerminal({ java: false });
  });

  it('runs the demo on the embedded store (said at start) and stops on Ctrl-C within 5 s', async () => {
    first = startNpm(t.env, ['--fast']);
    await first.ready();
    expect(first.output()).toMatch(
      /^dynamodb:\s+http:\/\/127\.0\.0\.1:\d+\s+embedded store \(dynalite, in this process, data in .*dynalite\): no Java 17 for DynamoDB Local/m,
    );
    expect(first.output()).toMatch(new RegExp(`^links:\\s+http://127\\.0\\.0\\.1:${t.ports.SENTINEL_PORT}\\b`, 'm'));
    const emails = await waitFor(
      'the demo emails and the drawdown alert in the chats',
      async () => {
        const all = await t.subjects();
        const alerted = (await t.chat()).some((r) => r.kind === 'discord' && r.status < 300 && /Drawdown/.test(JSON.stringify(r.body)));
        return all.filter((s) => s.startsWith('Daily report')).length >= 3 &&
          all.some((s) => /Drawdown 20% reached on demo-drawdown/.test(s)) &&
          all.some((s) => /trading-bot.*expires/.test(s)) &&
          alerted
          ? all
          : undefined;
      },
      180_000,
      PROBE_EVERY_MS,
    );
    expect(emails.some((s) => /trading-bot.*expires/.test(s))).toBe(true);

    // For the restart: the demo's trading-bot revoked on the chain, as the exchange's web client would (under
    // --fast a link's consumed token is older than the signer's 60 s on the simulated clock before it is signed),
    // and a poll that saw it. (Once more if the idle keep-alive connection was closed under the request.)
    const control = new SimControlClient((await t.services()).SIM_CONTROL_URL);
    await control.removeDelegate(STEADY, TRADING_BOT).catch(async () => {
      if ((await control.account(STEADY)).delegates.some((d) => d.address === TRADING_BOT)) await control.removeDelegate(STEADY, TRADING_BOT);
    });
    const { nowMs: revokedAt } = await control.clock();
    await waitFor(
      'a poll after the revocation',
      async () => {
        const at = await lastPollAt();
        return at !== undefined && at > revokedAt + 60_000 ? true : undefined;
      },
      120_000,
      QUICK_PROBE_EVERY_MS,
    );
    seen = await t.subjects();

    expect(await interruptNpmStart(first), `npm start must exit within 5 s of Ctrl-C:\n${first.output()}`).not.toBe('late');
    expect(first.output()).toMatch(/^stopped: /m);
    expect(first.output()).not.toMatch(/ECONNREFUSED|notification to be retried/);
  }, 400_000);

  it('a restart keeps the data, the inbox, the channels page and their ports, and goes on with the same chain: a revoked key stays revoked, no false new-key or drawdown alert', async () => {
    expect(seen.length, 'the first run stopped with its emails').toBeGreaterThan(0);
    const second = startNpm(t.env, ['--fast']);
    await second.ready().catch((error: unknown) => {
      throw new Error(`${String(error)}; first run:\n${first.output()}`);
    });
    for (const [label, port] of [
      ['links', t.ports.SENTINEL_PORT],
      ['inbox', t.ports.SENTINEL_INBOX_PORT],
      ['channels', t.ports.SENTINEL_CHANNELS_PORT],
    ] as const) {
      expect(second.output(), label).toMatch(new RegExp(`^${label}:\\s+http://127\\.0\\.0\\.1:${port}\\b`, 'm'));
    }
    // What the first run received is still in the inbox and on the channels page; the accounts are still tracked.
    const kept = await t.subjects();
    for (const subject of seen) expect(kept, subject).toContain(subject);
    expect((await t.chat()).some((r) => r.kind === 'discord' && /Drawdown/.test(JSON.stringify(r.body)))).toBe(true);
    expect(second.output()).not.toMatch(/demo: sent 3 daily report/);

    expect(second.output()).toMatch(/^simulator:.*the chain goes on from the last run/m);
    const restarted = new SimControlClient((await t.services()).SIM_CONTROL_URL);
    expect((await restarted.account(STEADY)).delegates.map((d) => d.address)).not.toContain(TRADING_BOT);
    // Three polls of the demo accounts after the restart (a minute apart on the simulated clock).
    const { nowMs: restartedAt } = await restarted.clock();
    await waitFor(
      'three polls after the restart',
      async () => {
        const at = await lastPollAt();
        return at !== undefined && at > restartedAt + 3 * 60_000 ? true : undefined;
      },
      120_000,
      QUICK_PROBE_EVERY_MS,
    );
    const after = await t.subjects();
    expect(count(after, /New API key “trading-bot”/), after.join('\n')).toBe(count(seen, /New API key “trading-bot”/));
    expect(count(after, /Drawdown \d+% reached on demo-drawdown/), after.join('\n')).toBe(count(seen, /Drawdown \d+% reached on demo-drawdown/));
    expect(await interruptNpmStart(second), `npm start must exit within 5 s of Ctrl-C:\n${second.output()}`).not.toBe('late');
  }, 400_000);
});
