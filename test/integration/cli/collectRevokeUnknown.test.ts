import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimControlClient, startSimulator } from '../../../local/sim';
import { repositoriesFrom } from '../../../functions/runtime/factories';
import { loadSettings } from '../../../functions/config/settings';
import { inject } from 'vitest';
import { testTables } from '../../support/testTables';
import { cliRunner } from '../../support/cli/cliHarness';

/**
 * `sentinel collect` (one cycle from the CLI) acts on `--revoke-unknown` as `serve` does: the
 * protection service queues the decision, the cycle drains the decision queue through the signing
 * handler, and the chain simulator, over HTTP, no longer lists the unknown key.
 */
describe('sentinel collect revokes an unknown key', () => {
  const tables = testTables();
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  let control: SimControlClient;
  let cli: ReturnType<typeof cliRunner>;
  const variables: string[] = [];

  beforeAll(async () => {
    sim = await startSimulator({ seed: 11 });
    control = new SimControlClient(sim.controlUrl);
    const protectionFile = join(await mkdtemp(join(tmpdir(), 'collect-protection-')), 'protection');
    cli = cliRunner({ SENTINEL_TABLE_PREFIX: tables.prefix, ROCKET_NODE_URL: sim.nodeUrl, ROCKET_INDEXER_URL: sim.indexerUrl }, Date.now, protectionFile);
  });
  afterAll(async () => {
    for (const variable of variables) delete process.env[variable];
    await sim?.close();
  });

  /** An account tracked with its owner key as an `env:` signer and `--revoke-unknown api-keys`, one bot key known, polled once. */
  async function armed() {
    const owner = await control.createAccount({ historyDays: 1 });
    const { delegate: bot } = await control.addDelegate(owner.address, { name: 'desk bot' });
    const variable = `OWNER_KEY_CLI_${randomUUID().slice(0, 8).toUpperCase()}`;
    process.env[variable] = owner.privateKey;
    variables.push(variable);
    const add = await cli('accounts', 'add', owner.address, '--email', 'desk@example.com', '--signer', `env:${variable}`, '--revoke-unknown', 'api-keys');
    expect(add.code, add.stderr).toBe(0);
    const first = await cli('collect', '--account', owner.address);
    expect(first.code, first.stderr).toBe(0);
    return { address: owner.address, bot: bot.address };
  }

  const listed = async (address: string) => (await control.account(address)).delegates.map((d) => d.address);

  it('with protection on: the unknown API key is removed on chain within the cycle, the known one and a web session stay, the audit gives the reason', async () => {
    expect((await cli('protection', 'on')).code).toBe(0);
    const { address, bot } = await armed();
    const { delegate: intruder } = await control.addDelegate(address, { name: 'not ours' });
    const { delegate: web } = await control.addDelegate(address, { name: 'browser', isWebClient: true });
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
  }, 120_000);

  it('with protection off: the cycle revokes nothing', async () => {
    expect((await cli('protection', 'off')).code).toBe(0);
    const { address } = await armed();
    const { delegate: intruder } = await control.addDelegate(address, { name: 'not ours' });
    const run = await cli('collect', '--account', address);
    expect(run.code, run.stderr).toBe(0);
    expect(await listed(address)).toContain(intruder.address);
  }, 120_000);
});
