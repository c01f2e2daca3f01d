import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repositoriesFrom } from '../../../functions/runtime/factories';
import { loadSettings } from '../../../functions/config/settings';
import { inject } from 'vitest';
import { cliWorld } from '../../support/cli/cliWorld';

/**
 * `sentinel collect` (one cycle from the CLI) acts on `--revoke-unknown` as `serve` does: the
 * protection service queues the decision, the cycle drains the decision queue through the signing
 * handler, and the chain simulator, over HTTP, no longer lists the unknown key.
 */
describe('sentinel collect revokes an unknown key', () => {
  const protectionFile = join(mkdtempSync(join(tmpdir(), 'collect-protection-')), 'protection');
  const { tables, sim, cli } = cliWorld({ sim: { seed: 11 }, protectionFile });
  const variables: string[] = [];
  afterAll(() => {
    for (const variable of variables) delete process.env[variable];
  });

  /** An account tracked with its owner key as an `env:` signer and `--revoke-unknown api-keys`, one bot key known, polled once. */
  async function armed() {
    const owner = await sim.control.createAccount({ historyDays: 1 });
    const { delegate: bot } = await sim.control.addDelegate(owner.address, { name: 'desk bot' });
    const variable = `OWNER_KEY_CLI_${randomUUID().slice(0, 8).toUpperCase()}`;
    process.env[variable] = owner.privateKey;
    variables.push(variable);
    const add = await cli('accounts', 'add', owner.address, '--email', 'desk@example.com', '--signer', `env:${variable}`, '--revoke-unknown', 'api-keys');
    expect(add.code, add.stderr).toBe(0);
    const first = await cli('collect', '--account', owner.address);
    expect(first.code, first.stderr).toBe(0);
    return { address: owner.address, bot: bot.address };
  }

  const listed = async (address: string) => (await sim.control.account(address)).delegates.map((d) => d.address);

  it('with protection on: the unknown API key is removed on chain within the cycle, the known one and a web session stay, the audit gives the reason', async () => {
    expect((await cli('protection', 'on')).code).toBe(0);
    const { address, bot } = await armed();
    const { delegate: intruder } = await sim.control.addDelegate(address, { name: 'not ours' });
    const { delegate: web } = await sim.control.addDelegate(address, { name: 'browser', isWebClient: true });
    const run = await cli('collect', '--account', address);
    expect(run.code, run.stderr).toBe(0);
    const after = await listed(address);
    expect(after).not.toContain(intruder.address);
    expect(after).toEqual(expect.arrayContaining([bot, web.address]));
    const repos = repositoriesFrom(loadSettings({ DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), SENTINEL_TABLE_PREFIX: tables.prefix }));
    const audit = await repos.audit.listForAccount(address, 10);
    expect(audit.find((r) => r.kind === 'intent')).toMatchObject({
      delegate: intruder.address,
      reason: 'unknown delegate',
      actor: expect.stringMatching(/^decision:/),
    });
    expect(audit.some((r) => r.delegate === web.address)).toBe(false);
    // The desk's pointer to the latest unknown-key decision is kept among the alert states; status lists the
    // decision with the automatic ones, never that bookkeeping as an alert state.
    const status = await cli('status', address, '--json');
    expect(status.code, status.stderr).toBe(0);
    expect((JSON.parse(status.stdout) as { alerts: { rule: string }[] }).alerts.map((a) => a.rule)).not.toContain('unknown-key-decision');
    expect((await cli('status', address)).stdout).not.toContain('unknown-key-decision');
  }, 120_000);

  it('with protection off: the cycle revokes nothing', async () => {
    expect((await cli('protection', 'off')).code).toBe(0);
    const { address } = await armed();
    const { delegate: intruder } = await sim.control.addDelegate(address, { name: 'not ours' });
    const run = await cli('collect', '--account', address);
    expect(run.code, run.stderr).toBe(0);
    expect(await listed(address)).toContain(intruder.address);
  }, 120_000);
});
