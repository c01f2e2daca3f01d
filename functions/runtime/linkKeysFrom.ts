import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { ConfigError, type Settings } from '../config/settings';
import type { LinkPurpose } from '../domain/linkClaims';
import { ActionLinks } from '../links/actionLinks';
import { deriveLinkKeyPair, linkPublicKeysSchema, MIN_LINK_KEY_SECRET_LENGTH, publicKeysOf } from '../links/linkKeyPair';
import { LinkMinter } from '../links/linkMinter';
import { LinkReader } from '../links/linkReader';
import { LinkTokenCodec } from '../links/linkToken';
import { LinkTokenSigner } from '../links/linkTokenSigner';
import { LinkTokenVerifier } from '../links/linkTokenVerifier';
import { describeError } from '../shared/describeError';
import { CsrfTokens } from '../web/csrfToken';
import { required } from './factories';

/*
 * The link keys of one function, from validated settings, read once per cold start (see "Rotating
 * the link keys" in docs/operations.md). Locally `SENTINEL_LINK_SECRET` stands for every key; in
 * AWS a minting function reads the private key secrets of its purposes only, and a page reads the
 * published public keys and its own anti-CSRF secret: nothing that mints another purpose.
 */

/** A secret and the ones it replaced (newest first) that still verify. */
export interface RotatedSecret {
  readonly current: string;
  readonly previous: readonly string[];
}

type Secrets = Pick<SecretsManagerClient, 'send'>;
type Parameters = Pick<SSMClient, 'send'>;

/** The local secret (`SENTINEL_LINK_SECRET`, `SENTINEL_LINK_SECRET_PREVIOUS`), or `undefined` in AWS. */
export function localLinkSecrets(settings: Settings): RotatedSecret | undefined {
  if (settings.SENTINEL_LINK_SECRET !== undefined) {
    return { current: settings.SENTINEL_LINK_SECRET, previous: settings.SENTINEL_LINK_SECRET_PREVIOUS ?? [] };
  }
  if (settings.SENTINEL_LINK_SECRET_PREVIOUS !== undefined) {
    throw new ConfigError('SENTINEL_LINK_SECRET_PREVIOUS', 'applies only with SENTINEL_LINK_SECRET (in AWS a key is rotated through its secret\'s versions)');
  }
  return undefined;
}

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

/**
 * Reads links of `purposes` with the public keys published in `LINK_PUBLIC_KEYS_PARAMETER` (every
 * key listed is accepted; locally the keys derived from `SENTINEL_LINK_SECRET` and its previous
 * ones). A purpose with no published key is a `ConfigError`.
 */
export async function linkReaderFrom(settings: Settings, purposes: readonly LinkPurpose[], parameters?: Parameters): Promise<LinkReader> {
  const base = required(settings, 'PUBLIC_BASE_URL');
  const local = localLinkSecrets(settings);
  if (local !== undefined) return new LinkReader(new LinkTokenCodec(local.current, local.previous).verifier(), base);
  const name = settings.LINK_PUBLIC_KEYS_PARAMETER;
  if (name === undefined) throw new ConfigError('LINK_PUBLIC_KEYS_PARAMETER', 'is required here but not set');
  const client = parameters ?? new SSMClient({ region: settings.AWS_REGION });
  let value: string | undefined;
  try {
    value = (await client.send(new GetParameterCommand({ Name: name }))).Parameter?.Value;
  } catch (error) {
    throw new ConfigError('LINK_PUBLIC_KEYS_PARAMETER', `could not be read (${describeError(error, { audience: 'log' })}); run \`sentinel link-keys publish\``, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(value ?? '');
  } catch (error) {
    throw new ConfigError('LINK_PUBLIC_KEYS_PARAMETER', 'is not JSON', { cause: error });
  }
  const record = linkPublicKeysSchema.safeParse(parsed);
  if (!record.success) throw new ConfigError('LINK_PUBLIC_KEYS_PARAMETER', `is not a list of public keys (${record.error.issues[0]?.message ?? 'invalid'})`, { cause: record.error });
  const unpublished = purposes.filter((purpose) => (record.data[purpose] ?? []).length === 0);
  if (unpublished.length > 0) throw new ConfigError('LINK_PUBLIC_KEYS_PARAMETER', `holds no public key of ${unpublished.join(', ')}; run \`sentinel link-keys publish\``);
  return new LinkReader(new LinkTokenVerifier(publicKeysOf(record.data, purposes)), base);
}

/**
 * The pages' anti-CSRF secret: locally `SENTINEL_LINK_SECRET` (and its previous ones), else the
 * `AWSCURRENT` and `AWSPREVIOUS` versions of the secret named by `CSRF_SECRET_ARN`. A secret never
 * rotated has no `AWSPREVIOUS`; any other failure is a `ConfigError` naming `CSRF_SECRET_ARN`.
 */
export async function csrfSecretsFrom(settings: Settings, secrets?: Secrets): Promise<RotatedSecret> {
  const local = localLinkSecrets(settings);
  if (local !== undefined) return local;
  const name = settings.CSRF_SECRET_ARN;
  if (name === undefined) throw new ConfigError('CSRF_SECRET_ARN', 'is required here but not set');
  const client = secrets ?? new SecretsManagerClient({ region: settings.AWS_REGION });
  const [current, previous] = await Promise.all([
    secretVersion(client, name, 'AWSCURRENT', 'CSRF_SECRET_ARN'),
    secretVersion(client, name, 'AWSPREVIOUS', 'CSRF_SECRET_ARN'),
  ]);
  if (current === undefined) throw new ConfigError('CSRF_SECRET_ARN', 'the secret has no AWSCURRENT version');
  return { current, previous: previous === undefined ? [] : [previous] };
}

/** What every public page needs: link reading (public keys), the CSRF values of its forms, and its own base URL. */
export interface PageSecurity {
  readonly links: Pick<LinkReader, 'read' | 'urlFor'>;
  readonly csrf: CsrfTokens;
  readonly publicBaseUrl: string;
}

/** `PageSecurity` of a page reading links of `purposes`. */
export async function pageSecurityFrom(settings: Settings, purposes: readonly LinkPurpose[]): Promise<PageSecurity> {
  const [links, csrf] = await Promise.all([linkReaderFrom(settings, purposes), csrfSecretsFrom(settings)]);
  return { links, csrf: new CsrfTokens(csrf.current, csrf.previous), publicBaseUrl: required(settings, 'PUBLIC_BASE_URL') };
}

/**
 * The local runtime's links and page security, where one process plays every function: every
 * purpose minted and read with the keys derived from `SENTINEL_LINK_SECRET` (and its previous ones).
 */
export function localPageSecurity(settings: Settings): PageSecurity & { readonly links: ActionLinks } {
  const local = localLinkSecrets(settings);
  if (local === undefined) throw new ConfigError('SENTINEL_LINK_SECRET', 'is required by the local runtime but not set');
  return {
    links: new ActionLinks(new LinkTokenCodec(local.current, local.previous), required(settings, 'PUBLIC_BASE_URL')),
    csrf: new CsrfTokens(local.current, local.previous),
    publicBaseUrl: required(settings, 'PUBLIC_BASE_URL'),
  };
}

/** One staged version of a secret; `undefined` when the stage does not exist (yet) and may be missing. */
async function secretVersion(client: Secrets, name: string, stage: 'AWSCURRENT' | 'AWSPREVIOUS', variable: string): Promise<string | undefined> {
  let secret: unknown;
  try {
    ({ SecretString: secret } = await client.send(new GetSecretValueCommand({ SecretId: name, VersionStage: stage })));
  } catch (error) {
    if (stage === 'AWSPREVIOUS' && error instanceof Error && error.name === 'ResourceNotFoundException') return undefined;
    const reason = describeError(error, { audience: 'log' });
    throw new ConfigError(variable, `could not read the ${stage} version of the secret (${reason})`, { cause: error });
  }
  if (typeof secret !== 'string' || secret.length < MIN_LINK_KEY_SECRET_LENGTH) {
    throw new ConfigError(variable, `the ${stage} version of the secret is missing or shorter than 32 characters`);
  }
  return secret;
}
