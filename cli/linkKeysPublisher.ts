import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { ConfigError, type Settings } from '../functions/config/settings';
import { LINK_PURPOSES, type LinkPurpose } from '../functions/domain/linkClaims';
import { deriveLinkKeyPair, publishedRecordOf, type LinkPublicKey, type PublishedLinkKeys } from '../functions/links/linkKeyPair';
import { describeError } from '../functions/shared/describeError';

/** The versions of a purpose's key secret that may sign, newest first: staged next, signing now, signing before. */
export const PUBLISHED_STAGES = ['AWSPENDING', 'AWSCURRENT', 'AWSPREVIOUS'] as const;
export type KeyStage = (typeof PUBLISHED_STAGES)[number];

/** Reads one version of a purpose's private key secret; `undefined` when that stage does not exist. */
export type KeySecretReader = (purpose: LinkPurpose, stage: KeyStage) => Promise<string | undefined>;

/**
 * The public keys to publish: per purpose, those of its secret's `AWSPENDING` (a rotation under
 * way: pages must accept it before anything signs with it), `AWSCURRENT`, and `AWSPREVIOUS` unless
 * `retirePrevious` (links signed with it are then refused). Only public keys leave this function.
 */
export async function publicKeysToPublish(read: KeySecretReader, retirePrevious: boolean): Promise<PublishedLinkKeys> {
  const stages = PUBLISHED_STAGES.filter((stage) => !(retirePrevious && stage === 'AWSPREVIOUS'));
  const keys: LinkPublicKey[] = [];
  for (const purpose of LINK_PURPOSES) {
    const found: LinkPublicKey[] = [];
    for (const stage of stages) {
      const secret = await read(purpose, stage);
      if (secret !== undefined) found.push(deriveLinkKeyPair(purpose, secret).public);
    }
    if (found.length === 0) throw new Error(`the ${purpose} key secret has no version to publish`);
    keys.push(...found);
  }
  return publishedRecordOf(keys);
}

/** Reads the stage's key secrets (`LINK_KEY_SECRET_PREFIX`) with the operator's credentials. */
export function awsKeySecretReader(settings: Settings, client = new SecretsManagerClient({ region: settings.AWS_REGION })): KeySecretReader {
  const prefix = settings.LINK_KEY_SECRET_PREFIX;
  if (prefix === undefined)
    throw new ConfigError('LINK_KEY_SECRET_PREFIX', 'is required to publish the link keys (the name prefix of the key secrets, `sentinel-<stage>-link-key-`)');
  return async (purpose, stage) => {
    try {
      const { SecretString: value } = await client.send(new GetSecretValueCommand({ SecretId: `${prefix}${purpose}`, VersionStage: stage }));
      return value;
    } catch (error) {
      if (stage !== 'AWSCURRENT' && error instanceof Error && error.name === 'ResourceNotFoundException') return undefined;
      throw new ConfigError(
        'LINK_KEY_SECRET_PREFIX',
        `could not read the ${stage} version of the ${purpose} key secret (${describeError(error, { audience: 'log' })})`,
        { cause: error },
      );
    }
  };
}

/** Writes the published public keys to `LINK_PUBLIC_KEYS_PARAMETER` (overwriting it). */
export async function writePublishedKeys(
  settings: Settings,
  record: PublishedLinkKeys,
  client = new SSMClient({ region: settings.AWS_REGION }),
): Promise<void> {
  const name = settings.LINK_PUBLIC_KEYS_PARAMETER;
  if (name === undefined) throw new ConfigError('LINK_PUBLIC_KEYS_PARAMETER', 'is required to publish the link keys (`/sentinel/<stage>/link-public-keys`)');
  await client.send(new PutParameterCommand({ Name: name, Value: JSON.stringify(record), Type: 'String', Overwrite: true }));
}
