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
    // A local run keeps its stage-like table prefix local: its channel worker reads the environment.
    expect(channelSecretScope({ SENTINEL_TABLE_PREFIX: 'sentinel-devnet-', DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' })).toEqual({ kind: 'local' });
  });

  it('refuses env references for a deployed stage or an unknown one (env:AWS_SESSION_TOKEN would be sent as a token), accepts them locally', () => {
    const devnet = channelSecretScope({ SENTINEL_TABLE_PREFIX: 'sentinel-devnet-' });
    expect(secretScopeProblem('env:AWS_SESSION_TOKEN', devnet)).toBe(
      '--secret env:AWS_SESSION_TOKEN names an environment variable, which a deployed channel worker never reads for a channel (its own variables hold AWS credentials): store the secret in Secrets Manager under sentinel/devnet/channels/ and name it with the secret prefix',
    );
    expect(secretScopeProblem('env:SLACK_URL', { kind: 'unknown' })).toMatch(/^--secret env:SLACK_URL names an environment variable/);
    expect(secretScopeProblem('env:SLACK_URL', { kind: 'local' })).toBeNull();
  });

  it('accepts Secrets Manager names or ARNs under the prefix only', () => {
    const devnet = channelSecretScope({ SENTINEL_TABLE_PREFIX: 'sentinel-devnet-' });
    expect(secretScopeProblem('secret:sentinel/devnet/channels/desk', devnet)).toBeNull();
    expect(secretScopeProblem('secret:arn:aws:secretsmanager:eu-west-1:111122223333:secret:sentinel/devnet/channels/desk-AbCdEf', devnet)).toBeNull();
    for (const ref of ['secret:sentinel/devnet/channel/desk', 'secret:sentinel/devnet/channels/', 'secret:xsentinel/devnet/channels/desk']) {
      expect(secretScopeProblem(ref, devnet), ref).toMatch(/^--secret must name a Secrets Manager secret under sentinel\/devnet\/channels\//);
    }
    expect(secretScopeProblem('secret:sentinel/devnet/channels/desk', { kind: 'unknown' })).toMatch(/stage is unknown/);
    expect(secretScopeProblem('secret:sentinel/devnet/channels/desk', { kind: 'local' })).toMatch(/not read when running locally/);
  });
});
