import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ConfigError, type Settings } from '../config/settings';
import type { LinkPurpose } from '../domain/linkClaims';
import { deriveLinkKeyPair } from '../links/linkKeyPair';
import { LinkMinter } from '../links/linkMinter';
import { LinkTokenCodec } from '../links/linkToken';
import { LinkTokenSigner } from '../links/linkTokenSigner';
import { required } from './factories';
import { localLinkSecrets, secretVersion, type Secrets } from './secretVersion';

/**
 * Makes links of `purposes` under `PUBLIC_BASE_URL`, signed with the `AWSCURRENT` version of each
 * purpose's secret `<LINK_KEY_SECRET_PREFIX><purpose>` (locally the keys derived from
 * `SENTINEL_LINK_SECRET`). `revokeAllServed`: whether that endpoint routes `/revoke-all`.
 */
export async function linkMinterFrom<P extends LinkPurpose>(
  settings: Settings,
  purposes: readonly P[],
  options: { revokeAllServed?: boolean; secrets?: Secrets } = {},
): Promise<LinkMinter<P>> {
  const base = required(settings, 'PUBLIC_BASE_URL');
  const revokeAllServed = options.revokeAllServed ?? settings.REVOKE_ALL_LINKS;
  const local = localLinkSecrets(settings);
  if (local !== undefined) return new LinkMinter<P>(new LinkTokenCodec(local.current, local.previous), base, undefined, revokeAllServed);
  const prefix = settings.LINK_KEY_SECRET_PREFIX;
  if (prefix === undefined) throw new ConfigError('LINK_KEY_SECRET_PREFIX', 'is required here but not set');
  const client = options.secrets ?? new SecretsManagerClient({ region: settings.AWS_REGION });
  const keys = await Promise.all(
    purposes.map(async (purpose) => {
      const secret = await secretVersion(client, `${prefix}${purpose}`, 'AWSCURRENT', 'LINK_KEY_SECRET_PREFIX');
      if (secret === undefined) throw new ConfigError('LINK_KEY_SECRET_PREFIX', `the ${purpose} key secret has no AWSCURRENT version`);
      return deriveLinkKeyPair(purpose, secret).signing;
    }),
  );
  return new LinkMinter<P>(new LinkTokenSigner<P>(keys), base, undefined, revokeAllServed);
}
