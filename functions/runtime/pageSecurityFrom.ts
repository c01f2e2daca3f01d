import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { ConfigError, type Settings } from '../config/settings';
import type { LinkPurpose } from '../domain/linkClaims';
import { ActionLinks } from '../links/actionLinks';
import { linkPublicKeysSchema, publicKeysOf } from '../links/linkKeyPair';
import { LinkReader } from '../links/linkReader';
import { LinkTokenCodec } from '../links/linkToken';
import { LinkTokenVerifier } from '../links/linkTokenVerifier';
import { describeError } from '../shared/describeError';
import { CsrfTokens } from '../web/csrfToken';
import { required } from './factories';
import { localLinkSecrets, secretVersion, type RotatedSecret, type Secrets } from './secretVersion';

/*
 * What a page reads links and checks its forms with, read once per cold start: the published public
 * keys of the purposes it reads (nothing that mints) and its own anti-CSRF secret. Locally
 * `SENTINEL_LINK_SECRET` stands for both.
 */

type Parameters = Pick<SSMClient, 'send'>;

/**
 * Reads links of `purposes` with the public keys published in `LINK_PUBLIC_KEYS_PARAMETER` (every
 * key listed is accepted; locally the keys derived from `SENTINEL_LINK_SECRET` and its previous
 * ones). A purpose with no published key is a `ConfigError`.
 */
export async function linkReaderFrom(settings: Settings, purposes: readonly LinkPurpose[], parameters?: Parameters): Promise<LinkReader> {
  const base = required(settings, 'PUBLIC_BASE_URL');
  return new LinkReader(await linkVerifierFrom(settings, purposes, parameters), base);
}

/**
 * The public keys of `purposes` as a verifier (it holds nothing that signs): those published in
 * `LINK_PUBLIC_KEYS_PARAMETER`, locally those derived from `SENTINEL_LINK_SECRET` and its previous
 * ones. What the pages read links with, and the signing function checks a request's link with.
 */
export async function linkVerifierFrom(settings: Settings, purposes: readonly LinkPurpose[], parameters?: Parameters): Promise<LinkTokenVerifier> {
  const local = localLinkSecrets(settings);
  if (local !== undefined) return new LinkTokenCodec(local.current, local.previous).verifier();
  const name = settings.LINK_PUBLIC_KEYS_PARAMETER;
  if (name === undefined) throw new ConfigError('LINK_PUBLIC_KEYS_PARAMETER', 'is required here but not set');
  const client = parameters ?? new SSMClient({ region: settings.AWS_REGION });
  let value: string | undefined;
  try {
    value = (await client.send(new GetParameterCommand({ Name: name }))).Parameter?.Value;
  } catch (error) {
    throw new ConfigError(
      'LINK_PUBLIC_KEYS_PARAMETER',
      `could not be read (${describeError(error, { audience: 'log' })}); run \`sentinel link publish-keys\``,
      { cause: error },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(value ?? '');
  } catch (error) {
    throw new ConfigError('LINK_PUBLIC_KEYS_PARAMETER', 'is not JSON', { cause: error });
  }
  const record = linkPublicKeysSchema.safeParse(parsed);
  if (!record.success)
    throw new ConfigError('LINK_PUBLIC_KEYS_PARAMETER', `is not a list of public keys (${record.error.issues[0]?.message ?? 'invalid'})`, {
      cause: record.error,
    });
  const unpublished = purposes.filter((purpose) => (record.data[purpose] ?? []).length === 0);
  if (unpublished.length > 0)
    throw new ConfigError('LINK_PUBLIC_KEYS_PARAMETER', `holds no public key of ${unpublished.join(', ')}; run \`sentinel link publish-keys\``);
  return new LinkTokenVerifier(publicKeysOf(record.data, purposes));
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
