import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { loadSettings, type Settings } from '../../functions/config/settings';

/**
 * Settings of a local system (`createLocalSystem`, `serveSystem`) in a test: the run's DynamoDB
 * Local and local SES, the given chain and table prefix, a fresh link secret.
 */
export function localSystemSettings(options: {
  readonly prefix: string;
  readonly sim: { readonly nodeUrl: string; readonly indexerUrl: string };
  readonly publicBaseUrl?: string;
}): Settings {
  return loadSettings({
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    SES_ENDPOINT: inject('sesEndpoint'),
    ROCKET_NODE_URL: options.sim.nodeUrl,
    ROCKET_INDEXER_URL: options.sim.indexerUrl,
    PUBLIC_BASE_URL: options.publicBaseUrl ?? 'http://127.0.0.1:9',
    SENTINEL_LINK_SECRET: randomBytes(32).toString('base64url'),
    SENTINEL_TABLE_PREFIX: options.prefix,
    MAIL_FROM: 'sentinel@example.com',
  });
}
