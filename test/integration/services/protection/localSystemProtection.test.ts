import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadSettings } from '../../../../functions/config/settings';
import { accountSettingsSchema } from '../../../../functions/domain/account';
import { newTrackedAccount } from '../../../../functions/domain/trackedAccount';
import { takeKnownDelegates } from '../../../../functions/services/knownKeys/takeKnownDelegates';
import { memoryCounters, silentLog } from '../../../../functions/shared/observability';
import { createRepositories } from '../../../../functions/store/repositories';
import { createLocalSystem, type LocalSystem } from '../../../../local/localSystem';
import { SimControlClient } from '../../../../local/sim/controlClient';
import { startSimulator, type RunningSimulator } from '../../../../local/sim/http/server';
import { testTables } from '../../../support/testTables';

const tables = testTables();
let sim: RunningSimulator;
let system: LocalSystem;
const signerEnv: Record<string, string | undefined> = {};
/** The system's clock runs ahead of the simulator's by this much: the next poll's slot comes without a wait. */
let ahead = 0;
const now = () => Date.now() + ahead;

beforeAll(async () => {
  sim = await startSimulator({ seed: 13 });
  const settings = loadSettings({
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    SES_ENDPOINT: inject('sesEndpoint'),
    ROCKET_NODE_URL: sim.nodeUrl,
    ROCKET_INDEXER_URL: sim.indexerUrl,
    PUBLIC_BASE_URL: 'http://127.0.0.1:9',
    SENTINEL_LINK_SECRET: randomBytes(32).toString('base64url'),
    SENTINEL_TABLE_PREFIX: tables.prefix,
    MAIL_FROM: 'sentinel@example.com',
    AWS_REGION: 'us-east-1',
  });
  const protectionFile = join(await mkdtemp(join(tmpdir(), 'protection-')), 'protection');
  system = await createLocalSystem({
    settings,
    repos: createRepositories(tables.client, tables.prefix),
    log: silentLog,
    counters: memoryCounters(),
    now,
    signerEnv,
    protectionFile,
  });
});
afterAll(async () => {
  await system?.pipeline.stop();
  await sim?.close();
});

describe('the local system wires the protection service into collect', () => {
  it('a collect cycle revokes an unknown API key of an account armed with --revoke-unknown api-keys, through the decision queue and the signer', async () => {
    const control = new SimControlClient(sim.controlUrl);
    const owner = await control.createAccount({ label: 'local-unknown', historyDays: 1 });
    const bot = await control.addDelegate(owner.address, { name: 'desk bot', expiresInMs: 86_400_000 });
    signerEnv['LOCAL_OWNER_KEY'] = owner.privateKey;
    const settings = accountSettingsSchema.parse({
      address: owner.address,
      emails: ['local-unknown@example.com'],
      signer: 'env:LOCAL_OWNER_KEY',
      revokeUnknown: 'api-keys',
      interval: '1m',
    });
    await system.repos.accounts.create(newTrackedAccount(settings, now()));
    await takeKnownDelegates(
      { chain: system.chain, accounts: system.repos.accounts, delegates: system.repos.delegates, knownDelegates: system.repos.knownDelegates },
      settings.address,
      now(),
    );
    await system.protection.write('on');
    const first = await system.pipeline.runCycle({ kind: 'account', address: settings.address });
    expect(first.outcomes.map((o) => o.kind)).toEqual(['collected']);

    const intruder = await control.addDelegate(owner.address, { name: 'not ours', expiresInMs: 86_400_000 });
    ahead += 60_000;
    const second = await system.pipeline.runCycle({ kind: 'account', address: settings.address });
    expect(second.outcomes.map((o) => o.kind)).toEqual(['collected']);
    const view = await control.account(owner.address);
    expect(view.delegates.map((d) => d.address)).toEqual([bot.delegate.address]);
    expect(view.delegates.map((d) => d.address)).not.toContain(intruder.delegate.address);
  }, 180_000);
});
