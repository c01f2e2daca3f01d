import { describe, expect, it } from 'vitest';
import { createRepositories } from '../../../functions/store/repositories';
import { cliWorld } from '../../support/cli/cliWorld';

/** Anything of a chain request: a URL, its host and port, the route with its query. */
const REQUEST_PARTS = /:\/\/|127\.0\.0\.1|portfolio\?|interval=|from=/;

describe('sentinel accounts / status: an account whose collection fails', () => {
  const { tables, sim, cli } = cliWorld({ sim: { seed: 11 } });

  it('collect, status, accounts list and show say what the chain answered, never the request URL', async () => {
    const owner = await sim.control.createAccount({});
    expect((await cli('accounts', 'add', owner.address, '--email', 'ops@example.com', '--interval', '1h')).code).toBe(0);
    await sim.control.setFaults({ routes: { portfolio: { error500: 1 } } });
    try {
      for (let i = 0; i < 3; i++) {
        const run = await cli('collect', '--account', owner.address);
        expect(run.stdout).toContain('the chain answered HTTP 500');
        expect(run.stdout).not.toMatch(REQUEST_PARTS);
      }
    } finally {
      await sim.control.resetFaults();
    }
    for (const argv of [
      ['status', owner.address],
      ['accounts', 'show', owner.address],
      ['accounts', 'list'],
    ]) {
      for (const json of [[], ['--json']]) {
        const run = await cli(...argv, ...json);
        expect(run.code, run.stderr).toBe(0);
        // The list's table has no reason column.
        if (argv[1] !== 'list' || json.length > 0) expect(run.stdout).toContain('the chain answered HTTP 500');
        expect(run.stdout).not.toMatch(REQUEST_PARTS);
      }
    }
  });

  it('a reason stored with the raw error text (before reasons were kept public) is shown without its URL', async () => {
    const owner = await sim.control.createAccount({});
    expect((await cli('accounts', 'add', owner.address, '--email', 'ops@example.com', '--interval', '1h')).code).toBe(0);
    const repos = createRepositories(tables.client, tables.prefix);
    const raw = `3 consecutive collection errors; last: GET http://127.0.0.1:41483/indexer/portfolio?account=${owner.address}&interval=1h failed with HTTP 500`;
    await repos.accounts.recordHealth(owner.address, { status: 'failing', statusReason: raw, consecutiveErrors: 3, consecutiveEmptyPolls: 0 });
    for (const argv of [
      ['status', owner.address],
      ['accounts', 'show', owner.address],
      ['accounts', 'list', '--json'],
    ]) {
      const run = await cli(...argv);
      expect(run.stdout).toContain('a request failed with HTTP 500');
      expect(run.stdout).not.toMatch(REQUEST_PARTS);
    }
  });
});
