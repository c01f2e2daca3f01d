import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadSettings } from '../../../../functions/config/settings';
import { accountSettingsSchema } from '../../../../functions/domain/account';
import { newTrackedAccount } from '../../../../functions/domain/trackedAccount';
import { memoryCounters, silentLog } from '../../../../functions/shared/observability';
import { createRepositories } from '../../../../functions/store/repositories';
import { freePort } from '../../../../local/freePort';
import { serveSystem, type Serving } from '../../../../local/serveSystem';
import { SimControlClient } from '../../../../local/sim/controlClient';
import { startSimulator, type RunningSimulator } from '../../../../local/sim/http/server';
import { testTables } from '../../../support/testTables';
import { formOf, getPage, submitForm, titleOf } from '../../../support/revocation/revocationWorld';

const tables = testTables();
let sim: RunningSimulator;
let serving: Serving;
const signerEnv: Record<string, string | undefined> = {};

beforeAll(async () => {
  sim = await startSimulator({ seed: 11 });
  const port = await freePort();
  const settings = loadSettings({
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    SES_ENDPOINT: inject('sesEndpoint'),
    ROCKET_NODE_URL: sim.nodeUrl,
    ROCKET_INDEXER_URL: sim.indexerUrl,
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    SENTINEL_LINK_SECRET: randomBytes(32).toString('base64url'),
    SENTINEL_TABLE_PREFIX: tables.prefix,
    MAIL_FROM: 'sentinel@example.com',
    AWS_REGION: 'us-east-1',
  });
  const repos = createRepositories(tables.client, tables.prefix);
  serving = await serveSystem({ settings, repos, log: silentLog, counters: memoryCounters(), now: Date.now, signerEnv, port });
});
afterAll(async () => {
  await serving?.stop();
  await sim?.close();
});

describe('sentinel serve: /revoke-all and its worker', () => {
  it('routes /revoke-all and revokes every delegate through the in-process queue, without a drain by hand', async () => {
    const control = new SimControlClient(sim.controlUrl);
    const { repos } = serving.system;
    const owner = await control.createAccount({ label: 'serve-revoke-all', historyDays: 1 });
    for (const name of ['bot-a', 'bot-b']) await control.addDelegate(owner.address, { name, expiresInMs: 86_400_000 });
    signerEnv['SERVE_OWNER_KEY'] = owner.privateKey;
    const settings = accountSettingsSchema.parse({
      address: owner.address,
      emails: ['serve-revoke-all@example.com'],
      label: 'serve',
      signer: 'env:SERVE_OWNER_KEY',
    });
    const now = Date.now();
    await repos.accounts.create(newTrackedAccount(settings, now));
    const listed = await serving.system.chain.getDelegateTraders(settings.address);
    await repos.delegates.putMany(
      listed.map((d) => ({
        address: settings.address,
        delegate: d.address,
        name: d.name,
        expiryMs: d.expiryMs,
        isWebClient: d.isWebClient,
        firstSeenAt: now,
        lastSeenAt: now,
        warningsSent: [],
        expiredNoticeSent: false,
        removedAt: null,
        generation: 1,
      })),
    );
    // Only the page and the revoke-all consumer run: no scheduler, so nothing else touches the account.
    serving.system.revokeAll.start();

    const link = serving.system.links.build({ purpose: 'revoke-all', account: settings.address }, now);
    expect(link.startsWith(`${serving.url}/revoke-all?token=`)).toBe(true);
    const page = await getPage(link);
    expect(titleOf(page)).toBe('Revoke all 2 API keys?');
    const form = formOf(page);
    expect(titleOf(await submitForm(form.action, form.fields))).toBe('Revoking API keys…');

    let done = await getPage(link);
    for (let i = 0; i < 200 && titleOf(done) === 'Revoking API keys…'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      done = await getPage(link);
    }
    expect(titleOf(done)).toBe('All API keys revoked');
    const view = await control.account(owner.address);
    expect({ nonce: view.nonce, delegates: view.delegates }).toEqual({ nonce: 2, delegates: [] });
  });
});
