import { describe, expect, it } from 'vitest';
import { credentialsFromEnv, defaultProvider } from '../../../functions/runtime/lambdaCredentials';

describe('Lambda credentials from the environment', () => {
  it('reads the key pair, session token and expiry', () => {
    expect(
      credentialsFromEnv({
        AWS_ACCESS_KEY_ID: 'AKID',
        AWS_SECRET_ACCESS_KEY: 'secret',
        AWS_SESSION_TOKEN: 'token',
        AWS_CREDENTIAL_EXPIRATION: '2030-01-01T00:00:00Z',
      }),
    ).toEqual({ accessKeyId: 'AKID', secretAccessKey: 'secret', sessionToken: 'token', expiration: new Date('2030-01-01T00:00:00Z') });
    expect(credentialsFromEnv({ AWS_ACCESS_KEY_ID: 'AKID', AWS_SECRET_ACCESS_KEY: 'secret' })).toEqual({ accessKeyId: 'AKID', secretAccessKey: 'secret' });
  });

  it('names the missing variables, never a value', () => {
    expect(() => credentialsFromEnv({ AWS_SECRET_ACCESS_KEY: 'hunter2-secret' })).toThrow(/^no AWS credentials in the environment: AWS_ACCESS_KEY_ID not set$/);
    expect(() => credentialsFromEnv({ AWS_ACCESS_KEY_ID: '' })).toThrow('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY not set');
  });

  it('provides what process.env holds when called', async () => {
    const provide = defaultProvider({ logger: console });
    const saved = { id: process.env['AWS_ACCESS_KEY_ID'], secret: process.env['AWS_SECRET_ACCESS_KEY'] };
    try {
      process.env['AWS_ACCESS_KEY_ID'] = 'AKIDNOW';
      process.env['AWS_SECRET_ACCESS_KEY'] = 'now';
      await expect(provide()).resolves.toMatchObject({ accessKeyId: 'AKIDNOW', secretAccessKey: 'now' });
    } finally {
      for (const [name, value] of [
        ['AWS_ACCESS_KEY_ID', saved.id],
        ['AWS_SECRET_ACCESS_KEY', saved.secret],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
