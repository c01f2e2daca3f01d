import { describe, expect, it } from 'vitest';
import { channelSecretScope, secretScopeProblem } from '../../../cli/channelSecretScope';
import { channelSecretPrefix as grantPrefix } from '../../../infra/config/resourceNames';

const settings = { SENTINEL_TABLE_PREFIX: 'sentinel-' };

describe('channelSecretScope', () => {
  it('takes the stage from SENTINEL_STAGE, else from a sentinel-<stage>- table prefix, with the prefix the grant covers', () => {
    expect(channelSecretScope({ ...settings, SENTINEL_STAGE: 'testnet' })).toEqual({ kind: 'stage', stage: 'testnet', prefix: grantPrefix('testnet') });
    expect(channelSecretScope({ SENTINEL_TABLE_PREFIX: 'sentinel-devnet-' })).toEqual({ kind: 'stage', stage: 'devnet', prefix: 'sentinel/devnet/channels/' });
    expect(channelSecretScope(settings)).toEqual({ kind: 'unknown' });
    expect(channelSecretScope({ ...settings, DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' })).toEqual({ kind: 'local' });
  });

  it('accepts env references anywhere and Secrets Manager names or ARNs under the prefix only', () => {
    const devnet = channelSecretScope({ SENTINEL_TABLE_PREFIX: 'sentinel-devnet-' });
    expect(secretScopeProblem('env:SLACK_URL', devnet)).toBeNull();
    expect(secretScopeProblem('env:SLACK_URL', { kind: 'unknown' })).toBeNull();
    expect(secretScopeProblem('secret:sentinel/devnet/channels/desk', devnet)).toBeNull();
    expect(secretScopeProblem('secret:arn:aws:secretsmanager:eu-west-1:111122223333:secret:sentinel/devnet/channels/desk-AbCdEf', devnet)).toBeNull();
    for (const ref of ['secret:sentinel/devnet/channel/desk', 'secret:sentinel/devnet/channels/', 'secret:xsentinel/devnet/channels/desk']) {
      expect(secretScopeProblem(ref, devnet), ref).toMatch(/^--secret must name a Secrets Manager secret under sentinel\/devnet\/channels\//);
    }
    expect(secretScopeProblem('secret:sentinel/devnet/channels/desk', { kind: 'unknown' })).toMatch(/stage is unknown/);
    expect(secretScopeProblem('secret:sentinel/devnet/channels/desk', { kind: 'local' })).toMatch(/not read when running locally/);
  });
});
