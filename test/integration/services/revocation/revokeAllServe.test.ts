import { describe, expect, it } from 'vitest';
import { accountSettingsSchema } from '../../../../functions/domain/account';
import { newTrackedAccount } from '../../../../functions/domain/trackedAccount';
import { formOf, getPage, submitForm, titleOf } from '../../../support/revocation/revocationWorld';
import { servedSystemPerFile } from '../../../support/local/servedSystemPerFile';
import { registerDelegateViews } from '../../../support/store/delegateViews';

const { sim, serving, signerEnv } = servedSystemPerFile({ seed: 11 });

describe('sentinel serve: /revoke-all and its worker', () => {
  it('routes /revoke-all and revokes every delegate through the in-process queue, without a drain by hand', async () => {
    const { repos } = serving.system;
    const owner = await sim.control.createAccount({ label: 'serve-revoke-all', historyDays: 1 });
    for (const name of ['bot-a', 'bot-b']) await sim.control.addDelegate(owner.address, { name, expiresInMs: 86_400_000 });
    signerEnv['SERVE_OWNER_KEY'] = owner.privateKey;
    const settings = accountSettingsSchema.parse({
      address: owner.address,
      emails: ['serve-revoke-all@example.com'],
      label: 'serve',
      signer: 'env:SERVE_OWNER_KEY',
    });
    const now = Date.now();
    await repos.accounts.create(newTrackedAccount(settings, now));
    await registerDelegateViews(repos, serving.system.chain, settings.address, now);
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
    const view = await sim.control.account(owner.address);
    expect({ nonce: view.nonce, delegates: view.delegates }).toEqual({ nonce: 2, delegates: [] });
  });
});
