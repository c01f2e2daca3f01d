import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadSettings } from '../../functions/config/settings';
import { linkSecretsFrom } from '../../functions/runtime/factories';

const ARN = 'arn:aws:secretsmanager:us-east-1:111122223333:secret:sentinel-test-link-secret';
type Stage = 'AWSCURRENT' | 'AWSPREVIOUS';

/** What the stand-in answers for one staging label: a GetSecretValue body, or an error of `type`. */
type StageAnswer = { body: object } | { status: number; type: string; message: string };

const missing = (stage: Stage): StageAnswer => ({
  status: 400,
  type: 'ResourceNotFoundException',
  message: `Secrets Manager can't find the specified secret value for staging label: ${stage}`,
});

describe('linkSecretsFrom', () => {
  /** The local Secrets Manager stand-in: answers GetSecretValue per `VersionStage`. */
  let stages: Partial<Record<Stage, StageAnswer>> = {};
  const requests: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8'))).on('end', () => {
      requests.push({ headers: req.headers, body });
      const { VersionStage: stage } = JSON.parse(body) as { VersionStage?: Stage };
      const answer = stages[stage ?? 'AWSCURRENT'] ?? missing(stage ?? 'AWSCURRENT');
      const headers = { 'content-type': 'application/x-amz-json-1.1' };
      if ('body' in answer) res.writeHead(200, headers).end(JSON.stringify(answer.body));
      else res.writeHead(answer.status, headers).end(JSON.stringify({ __type: answer.type, message: answer.message }));
    });
  });
  let secrets: SecretsManagerClient;
  const fromArn = () => linkSecretsFrom(loadSettings({ LINK_SECRET_ARN: ARN }), secrets);

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    secrets = new SecretsManagerClient({
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      maxAttempts: 1,
    });
  });
  beforeEach(() => {
    stages = {};
    requests.length = 0;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads the AWSCURRENT and AWSPREVIOUS versions of the secret named by LINK_SECRET_ARN', async () => {
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

  it('fails with a ConfigError naming LINK_SECRET_ARN, not the secret, when a version cannot be read', async () => {
    const current = { body: { ARN, SecretString: 'k'.repeat(48) } };
    const denied = { status: 400, type: 'AccessDeniedException', message: 'not authorized to perform secretsmanager:GetSecretValue' };
    for (const situation of [{ AWSCURRENT: current, AWSPREVIOUS: denied }, { AWSCURRENT: denied, AWSPREVIOUS: current }, { AWSPREVIOUS: current }]) {
      stages = situation;
      const error: unknown = await fromArn().then(() => expect.fail('resolved'), (e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe('LINK_SECRET_ARN');
      expect(String(error)).toMatch(/AccessDeniedException|ResourceNotFoundException/);
      expect(String(error)).not.toContain('k'.repeat(32));
    }
  });

  it('refuses a missing or short version with a ConfigError naming the variable', async () => {
    const long = { body: { ARN, SecretString: 'l'.repeat(48) } };
    for (const bad of [{ body: { ARN, SecretString: 'short' } }, { body: { ARN, SecretBinary: 'AAAA' } }]) {
      for (const situation of [{ AWSCURRENT: bad, AWSPREVIOUS: long }, { AWSCURRENT: long, AWSPREVIOUS: bad }]) {
        stages = situation;
        await expect(fromArn()).rejects.toThrow(ConfigError);
        await expect(fromArn()).rejects.toThrow(/LINK_SECRET_ARN/);
      }
    }
  });

  it('prefers SENTINEL_LINK_SECRET with SENTINEL_LINK_SECRET_PREVIOUS and asks nothing of Secrets Manager then', async () => {
    const env = { SENTINEL_LINK_SECRET: 'l'.repeat(32), SENTINEL_LINK_SECRET_PREVIOUS: ` ${'a'.repeat(32)}, ${'b'.repeat(40)} ,`, LINK_SECRET_ARN: ARN };
    await expect(linkSecretsFrom(loadSettings(env), secrets)).resolves.toEqual({ current: 'l'.repeat(32), previous: ['a'.repeat(32), 'b'.repeat(40)] });
    await expect(linkSecretsFrom(loadSettings({ SENTINEL_LINK_SECRET: 'l'.repeat(32) }), secrets)).resolves.toEqual({ current: 'l'.repeat(32), previous: [] });
    expect(requests).toHaveLength(0);
  });

  it('refuses a short SENTINEL_LINK_SECRET_PREVIOUS entry, and one without SENTINEL_LINK_SECRET', async () => {
    expect(() => loadSettings({ SENTINEL_LINK_SECRET: 'l'.repeat(32), SENTINEL_LINK_SECRET_PREVIOUS: `${'a'.repeat(32)},short` })).toThrow(
      /^SENTINEL_LINK_SECRET_PREVIOUS: each secret must be at least 32 characters$/,
    );
    await expect(linkSecretsFrom(loadSettings({ SENTINEL_LINK_SECRET_PREVIOUS: 'a'.repeat(32), LINK_SECRET_ARN: ARN }), secrets)).rejects.toThrow(
      /^SENTINEL_LINK_SECRET_PREVIOUS: applies only with SENTINEL_LINK_SECRET/,
    );
    expect(requests).toHaveLength(0);
  });
});
