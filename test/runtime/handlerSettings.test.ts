import { describe, expect, it } from 'vitest';
import { ConfigError, HANDLER_REQUIREMENTS, settingsFor } from '../../functions/config/settings';
import { handler as collectHandler } from '../../functions/handlers/collect';
import { lambdaContext } from '../../local/lambdaContext';

const FULL = {
  ROCKET_NODE_URL: 'http://127.0.0.1:9/node',
  ROCKET_INDEXER_URL: 'http://127.0.0.1:9/indexer',
  NOTIFY_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/notify',
  COLLECT_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/collect',
  PUBLIC_BASE_URL: 'https://links.example.com',
  SIGN_REVOCATION_FUNCTION_NAME: 'sign-revocation',
  LINK_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:link',
};

describe('settings per handler', () => {
  it.each(Object.entries(HANDLER_REQUIREMENTS))('%s fails at load naming each variable it requires', (name, requirement) => {
    expect(() => settingsFor(name as keyof typeof HANDLER_REQUIREMENTS, FULL)).not.toThrow();
    for (const variable of requirement.settings) {
      const env: Record<string, string> = { ...FULL };
      delete env[variable];
      expect(() => settingsFor(name as keyof typeof HANDLER_REQUIREMENTS, env)).toThrow(new RegExp(`^${variable}: is required by ${name}`));
    }
    if (requirement.linkSecret) {
      const { LINK_SECRET_ARN: _unset, ...env } = FULL;
      expect(() => settingsFor(name as keyof typeof HANDLER_REQUIREMENTS, env)).toThrow(/^LINK_SECRET_ARN: is required/);
      expect(() => settingsFor(name as keyof typeof HANDLER_REQUIREMENTS, { ...env, SENTINEL_LINK_SECRET: 'x'.repeat(32) })).not.toThrow();
    }
  });

  it('gives the retries, record concurrency, shard limit and deadline margin as settings with defaults', () => {
    const settings = settingsFor('collect', FULL);
    expect(settings).toMatchObject({ CHAIN_MAX_RETRIES: 3, COLLECT_RECORD_CONCURRENCY: 10, DISPATCH_LIMIT_PER_SHARD: 1_000, DEADLINE_MARGIN_MS: 5_000 });
    expect(() => settingsFor('collect', { ...FULL, COLLECT_RECORD_CONCURRENCY: '0' })).toThrow(/^COLLECT_RECORD_CONCURRENCY/);
  });

  it('the collect Lambda refuses its first event when a required variable is missing, naming it', async () => {
    const saved = process.env['ROCKET_NODE_URL'];
    delete process.env['ROCKET_NODE_URL'];
    try {
      const failure = await collectHandler({ Records: [] }, lambdaContext('collect')).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ConfigError);
      expect((failure as ConfigError).variable).toBe('ROCKET_NODE_URL');
    } finally {
      if (saved !== undefined) process.env['ROCKET_NODE_URL'] = saved;
    }
  });
});
