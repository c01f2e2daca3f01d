import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, settingsFor } from '../../../functions/config/settings';
import { HANDLER_CATALOG, HANDLER_NAMES, handlerFile, type HandlerName, type HandlerSpec } from '../../../functions/config/handlerCatalog';
import { handler as collectHandler } from '../../../functions/handlers/collect';
import { lambdaContext } from '../../../local/lambdaContext';
import { LINK_PURPOSES } from '../../../functions/domain/linkClaims';
import { PROJECT_ROOT } from '../../../infra/bundling/handlerEntry';

const FULL = {
  ROCKET_NODE_URL: 'http://127.0.0.1:9/node',
  ROCKET_INDEXER_URL: 'http://127.0.0.1:9/indexer',
  NOTIFY_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/notify',
  COLLECT_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/collect',
  REPORT_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/report',
  CHANNEL_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/channel',
  FANOUT_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/fanout',
  REVOCATION_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/revocations.fifo',
  DECISION_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/decisions.fifo',
  PUBLIC_BASE_URL: 'https://links.example.com',
  SIGN_REVOCATION_FUNCTION_NAME: 'sign-revocation',
  CHANNEL_TEST_FUNCTION_NAME: 'channel-test',
  LINK_KEY_SECRET_PREFIX: 'sentinel-test-link-key-',
  LINK_PUBLIC_KEYS_PARAMETER: '/sentinel/test/link-public-keys',
  CSRF_SECRET_ARN: 'sentinel-test-csrf-secret',
};

/** The handlers actually present: every `functions/handlers/<name>.ts`. */
const HANDLER_FILES = readdirSync(join(PROJECT_ROOT, 'functions', 'handlers'))
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.slice(0, -'.ts'.length))
  .sort();

/** Every environment variable the cases below may unset, restored after each. */
const TOUCHED = [...Object.keys(FULL), 'SENTINEL_LINK_SECRET'];
const saved = Object.fromEntries(TOUCHED.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const name of TOUCHED) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

/** The first event of a handler's Lambda, in an environment of `env` only (of the variables above): what it fails with. */
async function firstEventFailure(name: string, env: Record<string, string>): Promise<unknown> {
  for (const variable of TOUCHED) delete process.env[variable];
  Object.assign(process.env, env);
  const module = (await import(`../../../functions/handlers/${handlerFile(name as HandlerName)}.ts`)) as {
    handler: (event: unknown, context: unknown) => Promise<unknown>;
  };
  return module.handler({}, lambdaContext(name)).then(
    () =>
      expect.fail(
        `${name} started without ${Object.keys(FULL)
          .filter((v) => !(v in env))
          .join(', ')}`,
      ),
    (error: unknown) => error,
  );
}

describe('the handler catalog', () => {
  it('lists exactly the handler files of functions/handlers', () => {
    expect(HANDLER_NAMES.map(handlerFile).sort()).toEqual(HANDLER_FILES);
  });

  it('gives every handler one shape: create<Name>Handler(deps), <name>DepsFromEnv(env) and the AWS entry point', async () => {
    for (const file of HANDLER_FILES) {
      const camel = file.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
      const pascal = camel.charAt(0).toUpperCase() + camel.slice(1);
      const module = (await import(`../../../functions/handlers/${file}.ts`)) as Record<string, unknown>;
      expect(Object.keys(module), file).toEqual(expect.arrayContaining([`create${pascal}Handler`, `${camel}DepsFromEnv`, 'handler']));
      for (const name of [`create${pascal}Handler`, `${camel}DepsFromEnv`, 'handler']) expect(typeof module[name], `${file}: ${name}`).toBe('function');
    }
  });

  it('names only link purposes that exist, and no function without the settings its link keys need', () => {
    for (const name of HANDLER_NAMES) {
      const { links, settings } = HANDLER_CATALOG[name].requires;
      for (const purpose of [...links.mints, ...links.verifies]) expect(LINK_PURPOSES, `${name}: ${purpose}`).toContain(purpose);
      // A function that makes links, or a page, writes URLs; the signer only verifies a request's link (no forms, no URL).
      const forms = (links as HandlerSpec['requires']['links']).forms !== false;
      if (links.mints.length > 0 || (links.verifies.length > 0 && forms)) expect(settings, name).toContain('PUBLIC_BASE_URL');
    }
  });
});

describe('settings per handler', () => {
  it.each(HANDLER_NAMES)('%s refuses its first event naming each variable it requires', async (name) => {
    const requirement: HandlerSpec['requires'] = HANDLER_CATALOG[name as HandlerName].requires;
    expect(() => settingsFor(name as HandlerName, FULL)).not.toThrow();
    for (const variable of requirement.settings) {
      const env: Record<string, string> = { ...FULL };
      delete env[variable];
      expect(() => settingsFor(name as HandlerName, env)).toThrow(new RegExp(`^${variable}: is required by ${name}`));
      const failure = await firstEventFailure(name, env);
      expect(failure, `${name} without ${variable}`).toBeInstanceOf(ConfigError);
      expect((failure as Error).message).toMatch(new RegExp(`^${variable}: is required by ${name}`));
    }
    const linkVariables = [
      ...(requirement.links.mints.length > 0 ? ['LINK_KEY_SECRET_PREFIX'] : []),
      ...(requirement.links.verifies.length > 0 ? ['LINK_PUBLIC_KEYS_PARAMETER'] : []),
      ...(requirement.links.verifies.length > 0 && requirement.links.forms !== false ? ['CSRF_SECRET_ARN'] : []),
    ];
    for (const variable of linkVariables) {
      const env: Record<string, string> = { ...FULL };
      delete env[variable];
      expect(() => settingsFor(name as HandlerName, env)).toThrow(new RegExp(`^${variable}: is required`));
      expect(() => settingsFor(name as HandlerName, { ...env, SENTINEL_LINK_SECRET: 'x'.repeat(32) })).not.toThrow();
      const failure = await firstEventFailure(name, env);
      expect((failure as Error).message).toMatch(new RegExp(`^${variable}: is required by ${name}`));
    }
  });

  it('gives the retries, record concurrency, shard limit and deadline margin as settings with defaults', () => {
    const settings = settingsFor('collect', FULL);
    expect(settings).toMatchObject({ CHAIN_MAX_RETRIES: 3, COLLECT_RECORD_CONCURRENCY: 10, DISPATCH_LIMIT_PER_SHARD: 1_000, DEADLINE_MARGIN_MS: 5_000 });
    expect(() => settingsFor('collect', { ...FULL, COLLECT_RECORD_CONCURRENCY: '0' })).toThrow(/^COLLECT_RECORD_CONCURRENCY/);
  });

  it('the collect Lambda refuses its first event when a required variable is missing, naming it', async () => {
    delete process.env['ROCKET_NODE_URL'];
    const failure = await collectHandler({ Records: [] }, lambdaContext('collect')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as ConfigError).variable).toBe('ROCKET_NODE_URL');
  });
});
