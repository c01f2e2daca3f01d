import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ConfigError, type Settings } from '../config/settings';
import { MIN_LINK_KEY_SECRET_LENGTH } from '../links/linkKeyPair';
import { describeError } from '../shared/describeError';

/** A secret and the ones it replaced (newest first) that still verify. */
export interface RotatedSecret {
  readonly current: string;
  readonly previous: readonly string[];
}

/** A Secrets Manager client, or what answers like one. */
export type Secrets = Pick<SecretsManagerClient, 'send'>;

/** The local secret (`SENTINEL_LINK_SECRET`, `SENTINEL_LINK_SECRET_PREVIOUS`), or `undefined` in AWS. */
export function localLinkSecrets(settings: Settings): RotatedSecret | undefined {
  if (settings.SENTINEL_LINK_SECRET !== undefined) {
    return { current: settings.SENTINEL_LINK_SECRET, previous: settings.SENTINEL_LINK_SECRET_PREVIOUS ?? [] };
  }
  if (settings.SENTINEL_LINK_SECRET_PREVIOUS !== undefined) {
    throw new ConfigError('SENTINEL_LINK_SECRET_PREVIOUS', "applies only with SENTINEL_LINK_SECRET (in AWS a key is rotated through its secret's versions)");
  }
  return undefined;
}

/** One staged version of a secret; `undefined` when the stage does not exist (yet) and may be missing. */
export async function secretVersion(client: Secrets, name: string, stage: 'AWSCURRENT' | 'AWSPREVIOUS', variable: string): Promise<string | undefined> {
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
