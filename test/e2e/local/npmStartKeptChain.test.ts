import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { SimControlClient } from '../../../local/sim';
import { deriveKey } from '../../../local/sim/keys';
import { interruptNpmStart, npmStartsOfFile } from '../../support/local/npmStartProcess';
import { npmStartTerminal } from '../../support/local/npmStartTerminal';
import { waitFor } from '../../support/waitFor';

const STEADY = deriveKey(1, 'account:demo-steady').address;
const TRADING_BOT = deriveKey(1, `delegate:${STEADY}:trading-bot`).address;
/** How often a wait looks again: each look reads the whole inbox (megabytes, charts included) or runs the CLI, which would otherwise starve the stack under test. */
const PROBE_EVERY_MS = 2_000;

describe('npm start with its data kept', () => {
  const startNpm = npmStartsOfFile();

  it('a restart goes on with the same chain: a revoked key stays revoked, and no false new-key or drawdown alert', async () => {
    const t = await npmStartTerminal();
    /** When demo-steady was last polled (`status`: `last poll     ok at <ISO>`). */
    const lastPollAt = (): number | undefined => {
      const at = /^last poll\s+ok at (\S+)/m.exec(t.cli(tmpdir(), 'status', STEADY).stdout)?.[1];
      return at === undefined ? undefined : Date.parse(at);
    };

    const first = startNpm(t.env, ['--fast']);
    await first.ready();
    await waitFor(
      'the demo emails',
      async () => {
        const all = await t.subjects();
        return all.some((s) => /Drawdown 20% reached on demo-drawdown/.test(s)) && all.some((s) => /trading-bot.*expires/.test(s)) ? true : undefined;
      },
      150_000,
      PROBE_EVERY_MS,
    );
    const control = new SimControlClient((await t.services()).SIM_CONTROL_URL);
    // Revoke the demo's trading-bot on the chain, as the exchange's web client would (under --fast a link's
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
      PROBE_EVERY_MS,
    );
    const before = await t.subjects();
    const count = (all: string[], pattern: RegExp) => all.filter((s) => pattern.test(s)).length;
    expect(await interruptNpmStart(first)).not.toBe('late');

    const second = startNpm(t.env, ['--fast']);
    await second.ready();
    expect(second.output()).toMatch(/^simulator:.*the chain goes on from the last run/m);
    const restarted = new SimControlClient((await t.services()).SIM_CONTROL_URL);
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
      PROBE_EVERY_MS,
    );
    const after = await t.subjects();
    expect(count(after, /New API key “trading-bot”/), after.join('\n')).toBe(count(before, /New API key “trading-bot”/));
    expect(count(after, /Drawdown \d+% reached on demo-drawdown/), after.join('\n')).toBe(count(before, /Drawdown \d+% reached on demo-drawdown/));
    expect(await interruptNpmStart(second)).not.toBe('late');
  }, 600_000);
});
