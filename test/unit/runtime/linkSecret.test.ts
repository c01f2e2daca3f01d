import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadSettings } from '../../../functions/config/settings';
import { csrfSecretsFrom, linkReaderFrom } from '../../../functions/runtime/pageSecurityFrom';
import { linkMinterFrom } from '../../../functions/runtime/linkMinterFrom';
import { localLinkSecrets } from '../../../functions/runtime/secretVersion';
import { SSMClient } from '@aws-sdk/client-ssm';
import { deriveLinkKeyPair, publishedRecordOf } from '../../../functions/links/linkKeyPair';
import { LinkTokenVerifier } from '../../../functions/links/linkTokenVerifier';

const ARN = 'arn:aws:secretsmanager:us-east-1:111122223333:secret:sentinel-test-csrf-secret';
const PREFIX = 'sentinel-test-link-key-';
const PARAMETER = '/sentinel/test/link-public-keys';
const BASE = 'https://links.example.com';
const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const T0 = Date.UTC(2025, 2, 14, 12);
type Stage = 'AWSCURRENT' | 'AWSPREVIOUS';

/** What the stand-in answers for one staging label: a GetSecretValue body, or an error of `type`. */
type StageAnswer = { body: object } | { status: number; type: string; message: string };

const missing = (stage: Stage): StageAnswer => ({
  status: 400,
  type: 'ResourceNotFoundException',
  message: `Secrets Manager can't find the specified secret value for staging label: ${stage}`,
});

describe('the link keys and the anti-CSRF secret from AWS', () => {
  /** The local Secrets Manager and SSM stand-in: answers GetSecretValue per `VersionStage` (per secret in `keySecrets`), GetParameter from `parameter`. */
  let stages: Partial<Record<Stage, StageAnswer>> = {};
  let keySecrets: Record<string, string> = {};
  let parameter: string | undefined;
  const requests: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req
      .on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
      .on('end', () => {
        requests.push({ headers: req.headers, body });
        const { VersionStage: stage, SecretId: id } = JSON.parse(body) as { VersionStage?: Stage; SecretId?: string };
        const headers = { 'content-type': 'application/x-amz-json-1.1' };
        if (req.headers['x-amz-target'] === 'AmazonSSM.GetParameter') {
          if (parameter === undefined) res.writeHead(400, headers).end(JSON.stringify({ __type: 'ParameterNotFound', message: 'not found' }));
          else res.writeHead(200, headers).end(JSON.stringify({ Parameter: { Name: PARAMETER, Type: 'String', Value: parameter, Version: 1 } }));
          return;
        }
        const keySecret = id === undefined ? undefined : keySecrets[id];
        const answer = id?.startsWith(PREFIX)
          ? keySecret !== undefined && stage === 'AWSCURRENT'
            ? { body: { ARN: id, SecretString: keySecret } }
            : missing(stage ?? 'AWSCURRENT')
          : (stages[stage ?? 'AWSCURRENT'] ?? missing(stage ?? 'AWSCURRENT'));
        if ('body' in answer) res.writeHead(200, headers).end(JSON.stringify(answer.body));
        else res.writeHead(answer.status, headers).end(JSON.stringify({ __type: answer.type, message: answer.message }));
      });
  });
  let secrets: SecretsManagerClient;
  let parameters: SSMClient;
  const fromArn = () => csrfSecretsFrom(loadSettings({ CSRF_SECRET_ARN: ARN }), secrets);

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    secrets = new SecretsManagerClient({
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      maxAttempts: 1,
    });
    parameters = new SSMClient({
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      maxAttempts: 1,
    });
  });
  beforeEach(() => {
    stages = {};
    keySecrets = {};
    parameter = undefined;
    requests.length = 0;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads the AWSCURRENT and AWSPREVIOUS versions of the anti-CSRF secret named by CSRF_SECRET_ARN', async () => {
    stages = { AWSCURRENT: { body: { ARN, SecretString: 'c'.repeat(48) } }, AWSPREVIOUS: { body: { ARN, SecretString: 'p'.repeat(48) } } };
    await expect(fromArn()).resolves.toEqual({ current: 'c'.repeat(48), previous: ['p'.repeat(48)] });
    expect(requests.map((r) => r.headers['x-amz-target'])).toEqual(['secretsmanager.GetSecretValue', 'secretsmanager.GetSecretValue']);
    expect(requests.map((r) => JSON.parse(r.body) as unknown)).toEqual(
      expect.arrayContaining([
        { SecretId: ARN, VersionStage: 'AWSCURRENT' },
        { SecretId: ARN, VersionStage: 'AWSPREVIOUS' },
      ]),
    );
  });

  it('has no previous secret before the first rotation (AWSPREVIOUS not found)', async () => {
    stages = { AWSCURRENT: { body: { ARN, SecretString: 's'.repeat(48) } } };
    await expect(fromArn()).resolves.toEqual({ current: 's'.repeat(48), previous: [] });
  });

  it('fails with a ConfigError naming CSRF_SECRET_ARN, not the secret, when a version cannot be read', async () => {
    const current = { body: { ARN, SecretString: 'k'.repeat(48) } };
    const denied = { status: 400, type: 'AccessDeniedException', message: 'not authorized to perform secretsmanager:GetSecretValue' };
    for (const situation of [{ AWSCURRENT: current, AWSPREVIOUS: denied }, { AWSCURRENT: denied, AWSPREVIOUS: current }, { AWSPREVIOUS: current }]) {
      stages = situation;
      const error: unknown = await fromArn().then(
        () => expect.fail('resolved'),
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe('CSRF_SECRET_ARN');
      expect(String(error)).toMatch(/AccessDeniedException|ResourceNotFoundException/);
      expect(String(error)).not.toContain('k'.repeat(32));
    }
  });

  it('refuses a missing or short version with a ConfigError naming the variable', async () => {
    const long = { body: { ARN, SecretString: 'l'.repeat(48) } };
    for (const bad of [{ body: { ARN, SecretString: 'short' } }, { body: { ARN, SecretBinary: 'AAAA' } }]) {
      for (const situation of [
        { AWSCURRENT: bad, AWSPREVIOUS: long },
        { AWSCURRENT: long, AWSPREVIOUS: bad },
      ]) {
        stages = situation;
        await expect(fromArn()).rejects.toThrow(ConfigError);
        await expect(fromArn()).rejects.toThrow(/CSRF_SECRET_ARN/);
      }
    }
  });

  it('prefers SENTINEL_LINK_SECRET with SENTINEL_LINK_SECRET_PREVIOUS and asks nothing of Secrets Manager then', async () => {
    const env = {
      SENTINEL_LINK_SECRET: 'l'.repeat(32),
      SENTINEL_LINK_SECRET_PREVIOUS: ` ${'a'.repeat(32)}, ${'b'.repeat(40)} ,`,
      CSRF_SECRET_ARN: ARN,
      LINK_KEY_SECRET_PREFIX: PREFIX,
      PUBLIC_BASE_URL: BASE,
    };
    await expect(csrfSecretsFrom(loadSettings(env), secrets)).resolves.toEqual({ current: 'l'.repeat(32), previous: ['a'.repeat(32), 'b'.repeat(40)] });
    await expect(csrfSecretsFrom(loadSettings({ SENTINEL_LINK_SECRET: 'l'.repeat(32) }), secrets)).resolves.toEqual({ current: 'l'.repeat(32), previous: [] });
    await linkMinterFrom(loadSettings(env), ['revoke'], { secrets });
    expect(requests).toHaveLength(0);
  });

  it('refuses a short SENTINEL_LINK_SECRET_PREVIOUS entry, and one without SENTINEL_LINK_SECRET', async () => {
    expect(() => loadSettings({ SENTINEL_LINK_SECRET: 'l'.repeat(32), SENTINEL_LINK_SECRET_PREVIOUS: `${'a'.repeat(32)},short` })).toThrow(
      /^SENTINEL_LINK_SECRET_PREVIOUS: each secret must be at least 32 characters$/,
    );
    expect(() => localLinkSecrets(loadSettings({ SENTINEL_LINK_SECRET_PREVIOUS: 'a'.repeat(32), CSRF_SECRET_ARN: ARN }))).toThrow(
      /^SENTINEL_LINK_SECRET_PREVIOUS: applies only with SENTINEL_LINK_SECRET/,
    );
    await expect(csrfSecretsFrom(loadSettings({ SENTINEL_LINK_SECRET_PREVIOUS: 'a'.repeat(32), CSRF_SECRET_ARN: ARN }), secrets)).rejects.toThrow(
      /^SENTINEL_LINK_SECRET_PREVIOUS: applies only with SENTINEL_LINK_SECRET/,
    );
    expect(requests).toHaveLength(0);
  });

  it('gives a minting function the AWSCURRENT private keys of its own purposes only, asking for no other secret', async () => {
    keySecrets = { [`${PREFIX}revoke`]: 'r'.repeat(64), [`${PREFIX}unsubscribe`]: 'u'.repeat(64), [`${PREFIX}snooze`]: 's'.repeat(64) };
    const minter = await linkMinterFrom(loadSettings({ LINK_KEY_SECRET_PREFIX: PREFIX, PUBLIC_BASE_URL: BASE }), ['revoke', 'unsubscribe'], { secrets });
    expect(requests.map((r) => JSON.parse(r.body) as unknown).sort()).toEqual(
      expect.arrayContaining([
        { SecretId: `${PREFIX}revoke`, VersionStage: 'AWSCURRENT' },
        { SecretId: `${PREFIX}unsubscribe`, VersionStage: 'AWSCURRENT' },
      ]),
    );
    expect(requests).toHaveLength(2);
    const token = new URL(minter.build({ purpose: 'revoke', account: ACCOUNT, delegate: ACCOUNT }, T0)).searchParams.get('token') ?? '';
    const revokeKey = deriveLinkKeyPair('revoke', 'r'.repeat(64)).public;
    expect(new LinkTokenVerifier([revokeKey]).verify('revoke', token).kind).toBe('valid');
    expect(() => minter.build({ purpose: 'snooze', account: ACCOUNT, snoozeHours: 24 } as never, T0)).toThrow(/no signing key for link purpose snooze/);
  });

  it('names LINK_KEY_SECRET_PREFIX when a purpose has no key secret, and never prints a key', async () => {
    keySecrets = { [`${PREFIX}revoke`]: 'r'.repeat(64) };
    const error: unknown = await linkMinterFrom(loadSettings({ LINK_KEY_SECRET_PREFIX: PREFIX, PUBLIC_BASE_URL: BASE }), ['revoke', 'snooze'], {
      secrets,
    }).then(
      () => expect.fail('resolved'),
      (e: unknown) => e,
    );
    expect((error as ConfigError).variable).toBe('LINK_KEY_SECRET_PREFIX');
    expect(String(error)).not.toContain('r'.repeat(32));
  });

  it('gives a page the published public keys and makes no Secrets Manager call for them', async () => {
    const current = deriveLinkKeyPair('revoke', 'n'.repeat(64));
    const previous = deriveLinkKeyPair('revoke', 'o'.repeat(64));
    parameter = JSON.stringify(publishedRecordOf([current.public, previous.public]));
    const reader = await linkReaderFrom(loadSettings({ LINK_PUBLIC_KEYS_PARAMETER: PARAMETER, PUBLIC_BASE_URL: BASE }), ['revoke'], parameters);
    expect(requests.map((r) => r.headers['x-amz-target'])).toEqual(['AmazonSSM.GetParameter']);
    expect(reader).not.toHaveProperty('build');
    expect(reader).not.toHaveProperty('sign');
    const { LinkMinter } = await import('../../../functions/links/linkMinter');
    const { LinkTokenSigner } = await import('../../../functions/links/linkTokenSigner');
    for (const pair of [current, previous]) {
      const url = new LinkMinter(new LinkTokenSigner([pair.signing]), BASE).build({ purpose: 'revoke', account: ACCOUNT, delegate: ACCOUNT }, T0);
      expect(reader.read('revoke', new URL(url).searchParams.get('token') ?? undefined, T0).kind).toBe('valid');
    }
    await expect(
      linkReaderFrom(loadSettings({ LINK_PUBLIC_KEYS_PARAMETER: PARAMETER, PUBLIC_BASE_URL: BASE }), ['revoke', 'snooze'], parameters),
    ).rejects.toThrow(/^LINK_PUBLIC_KEYS_PARAMETER: holds no public key of snooze.*; run `sentinel link publish-keys`$/);
  });

  it('refuses a published key whose kid is not its own, or no parameter at all, naming the variable', async () => {
    const pair = deriveLinkKeyPair('revoke', 'n'.repeat(64));
    const [published] = publishedRecordOf([pair.public]).revoke ?? [];
    parameter = JSON.stringify({ revoke: [{ kid: 'AAAAAAAA', key: published?.key }] });
    await expect(linkReaderFrom(loadSettings({ LINK_PUBLIC_KEYS_PARAMETER: PARAMETER, PUBLIC_BASE_URL: BASE }), ['revoke'], parameters)).rejects.toThrow(
      /^LINK_PUBLIC_KEYS_PARAMETER: is not a list of public keys \(revoke: kid AAAAAAAA is not the id of its key\)/,
    );
    parameter = undefined;
    await expect(linkReaderFrom(loadSettings({ LINK_PUBLIC_KEYS_PARAMETER: PARAMETER, PUBLIC_BASE_URL: BASE }), ['revoke'], parameters)).rejects.toThrow(
      /^LINK_PUBLIC_KEYS_PARAMETER: could not be read \(.*ParameterNotFound.*\); run `sentinel link publish-keys`/,
    );
  });
});
