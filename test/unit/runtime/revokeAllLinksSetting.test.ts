import { describe, expect, it } from 'vitest';
import { ConfigError, loadSettings } from '../../../functions/config/settings';
import type { Address } from '../../../functions/domain/address';
import { linkMinterFrom } from '../../../functions/runtime/linkMinterFrom';
import { HANDLER_CATALOG } from '../../../functions/config/handlerCatalog';
import { recipientLinks } from '../../../functions/services/delivery/recipientLinks';

const ENV = { SENTINEL_LINK_SECRET: 'link-secret-that-is-long-enough-0123456789', PUBLIC_BASE_URL: 'https://links.example.com' };
const ACCOUNT = { address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as Address, signer: 'kms:alias/sentinel/devnet/desk-a' };
const T0 = Date.UTC(2025, 2, 14, 12);

/** The revoke-all link a Lambda's email would carry, built the way the mailers build their links. */
async function revokeAllUrlWith(env: Record<string, string>): Promise<string | null> {
  const links = await linkMinterFrom(loadSettings({ ...ENV, ...env }), HANDLER_CATALOG.notify.requires.links.mints);
  return recipientLinks(links, ACCOUNT, 'desk@example.com', T0, 'security').revokeAllUrl();
}

describe('REVOKE_ALL_LINKS: a Lambda writes revoke-all links only when its stage routes /revoke-all', () => {
  it('writes none by default, so no email links to a path the stage would answer 404', async () => {
    expect(await revokeAllUrlWith({})).toBeNull();
    expect(await revokeAllUrlWith({ REVOKE_ALL_LINKS: 'false' })).toBeNull();
  });

  it('writes the link under PUBLIC_BASE_URL when the stack says the route exists', async () => {
    const url = await revokeAllUrlWith({ REVOKE_ALL_LINKS: 'true' });
    expect(url).toMatch(/^https:\/\/links\.example\.com\/revoke-all\?token=/);
  });

  it('refuses anything but true or false, naming the variable', () => {
    expect(() => loadSettings({ ...ENV, REVOKE_ALL_LINKS: 'yes' })).toThrow(ConfigError);
    expect(() => loadSettings({ ...ENV, REVOKE_ALL_LINKS: 'yes' })).toThrow(/^REVOKE_ALL_LINKS/);
  });
});
