import { describe, expect, it } from 'vitest';
import { cliWorld } from '../../support/cli/cliWorld';

interface Listed {
  address: string;
  status: string;
  statusReason: string | null;
  lastPoll: { outcome: string; at: string | null; reason: string | null; since: string | null; consecutiveFailures: number };
}

describe('sentinel accounts list --status, and the last poll apart from the status', () => {
  const { sim, cli } = cliWorld({ sim: { seed: 12 } });

  const listed = async (...extra: string[]): Promise<Listed[]> => JSON.parse((await cli('accounts', 'list', '--json', ...extra)).stdout) as Listed[];

  it('a never-polled account is new; one failed poll shows at once as the last poll while the status waits for the threshold', async () => {
    const fresh = await sim.control.createAccount({});
    const flaky = await sim.control.createAccount({});
    for (const a of [fresh, flaky]) expect((await cli('accounts', 'add', a.address, '--email', 'ops@example.com', '--interval', '1h')).code).toBe(0);
    expect((await listed()).map((a) => a.status)).toEqual(['new', 'new']);

    await sim.control.setFaults({ routes: { portfolio: { error500: 1 } } });
    try {
      expect((await cli('collect', '--account', flaky.address)).code).toBe(0);
    } finally {
      await sim.control.resetFaults();
    }
    const once = (await listed()).find((a) => a.address === flaky.address);
    expect(once).toMatchObject({ status: 'ok', statusReason: null, lastPoll: { outcome: 'failed', consecutiveFailures: 1 } });
    expect(once?.lastPoll.reason).toContain('the chain answered HTTP 500');
    expect(Date.parse(once?.lastPoll.at ?? '')).not.toBeNaN();

    const table = await cli('accounts', 'list');
    expect(table.stdout).toMatch(/LAST POLL/);
    expect(table.stdout).toMatch(/failed at \S+: the chain answered HTTP 500/);
    expect(table.stdout).toMatch(/none yet/);
    expect(table.stdout).toContain('2 accounts: 1 ok, 0 stale, 0 failing, 1 new');

    const show = await cli('accounts', 'show', flaky.address);
    expect(show.stdout).toMatch(/^status\s+ok$/m);
    expect(show.stdout).toMatch(/^last poll\s+failed at .*HTTP 500/m);
    const status = await cli('status', flaky.address);
    expect(status.stdout).toMatch(/^last poll\s+failed at .*HTTP 500/m);
    expect(status.stdout).not.toMatch(/^status\s+ok \(/m);

    const onlyNew = await cli('accounts', 'list', '--status', 'new');
    expect(onlyNew.stdout).toContain(fresh.address);
    expect(onlyNew.stdout).not.toContain(flaky.address);
    expect(onlyNew.stdout).toContain('1 of 2 accounts new');
    expect(await listed('--status', 'failing')).toEqual([]);
  });

  it('after the threshold of failed polls the account is failing and --status failing finds it; a success clears the last poll', async () => {
    const owner = await sim.control.createAccount({});
    expect((await cli('accounts', 'add', owner.address, '--email', 'ops@example.com', '--interval', '1h')).code).toBe(0);
    await sim.control.setFaults({ routes: { portfolio: { error500: 1 } } });
    try {
      for (let i = 0; i < 3; i++) await cli('collect', '--account', owner.address);
    } finally {
      await sim.control.resetFaults();
    }
    const failing = await listed('--status', 'failing');
    expect(failing.map((a) => a.address)).toEqual([owner.address]);
    expect(failing[0]?.lastPoll).toMatchObject({ outcome: 'failed', consecutiveFailures: 3 });
    expect(failing[0]?.lastPoll.since).not.toBe(failing[0]?.lastPoll.at);

    expect((await cli('collect', '--account', owner.address)).code).toBe(0);
    const after = (await listed()).find((a) => a.address === owner.address);
    expect(after).toMatchObject({ status: 'ok', lastPoll: { outcome: 'ok', reason: null } });
  });

  it('an unknown --status is a usage error naming the option', async () => {
    const run = await cli('accounts', 'list', '--status', 'broken');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--status');
  });
});
