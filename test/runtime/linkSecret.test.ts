import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadSettings } from '../../functions/config/settings';
import { linkSecretFrom } from '../../functions/runtime/factories';

const ARN = 'arn:aws:secretsmanager:us-east-1:111122223333:secret:sentinel-test-link-secret';

describe('linkSecretFrom', () => {
  let answer = '';
  const requests: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8'))).on('end', () => {
      requests.push({ headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' }).end(answer);
    });
  });
  let secrets: SecretsManagerClient;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    secrets = new SecretsManagerClient({
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      maxAttempts: 1,
    });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads the secret named by LINK_SECRET_ARN from Secrets Manager', async () => {
    answer = JSON.stringify({ ARN, Name: 'sentinel-test-link-secret', SecretString: 's'.repeat(48) });
    await expect(linkSecretFrom(loadSettings({ LINK_SECRET_ARN: ARN }), secrets)).resolves.toBe('s'.repeat(48));
    const request = requests.at(-1) ?? expect.fail('no request');
    expect(request.headers['x-amz-target']).toBe('secretsmanager.GetSecretValue');
    expect(JSON.parse(request.body)).toEqual({ SecretId: ARN });
  });

  it('refuses a missing or short secret with a ConfigError naming the variable', async () => {
    for (const body of [{ ARN, SecretString: 'short' }, { ARN, SecretBinary: 'AAAA' }]) {
      answer = JSON.stringify(body);
      await expect(linkSecretFrom(loadSettings({ LINK_SECRET_ARN: ARN }), secrets)).rejects.toThrow(ConfigError);
      await expect(linkSecretFrom(loadSettings({ LINK_SECRET_ARN: ARN }), secrets)).rejects.toThrow(/LINK_SECRET_ARN/);
    }
  });

  it('prefers SENTINEL_LINK_SECRET and asks nothing of Secrets Manager then', async () => {
    const before = requests.length;
    await expect(linkSecretFrom(loadSettings({ SENTINEL_LINK_SECRET: 'l'.repeat(32), LINK_SECRET_ARN: ARN }), secrets)).resolves.toBe('l'.repeat(32));
    expect(requests.length).toBe(before);
  });
});
