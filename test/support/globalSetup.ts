import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../local/dynamodb';
import { startSesLocal } from '../../local/ses';

declare module 'vitest' {
  export interface ProvidedContext {
    /** DynamoDB Local shared by the whole run; each test file uses its own table prefix (see `testTables`). */
    dynamoEndpoint: string;
    /** The local SES endpoint; its `/store` lists sent mail (see `sesStore`). */
    sesEndpoint: string;
  }
}

/**
 * Starts the real local services the integration tests talk to, once per run, on free ports,
 * and hands their endpoints to the tests through `inject()`. `DYNAMODB_ENDPOINT` and
 * `SES_ENDPOINT` point the run at already running services instead.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const env = process.env;
  const started = await Promise.allSettled([
    env['DYNAMODB_ENDPOINT'] ? external(env['DYNAMODB_ENDPOINT']) : startDynamoDbLocal({ inMemory: true }),
    // Test files look their mail up by recipient after sending: keep far more than the inbox default.
    env['SES_ENDPOINT'] ? external(env['SES_ENDPOINT']) : startSesLocal({ maxEmails: 20_000, maxStoreBytes: 1024 * 1024 * 1024 }),
  ]);
  const stops = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value.stop] : []));
  const teardown = async (): Promise<void> => {
    await Promise.all(stops.map((stop) => stop()));
  };
  const [dynamo, ses] = started;
  if (dynamo?.status !== 'fulfilled' || ses?.status !== 'fulfilled') {
    await teardown();
    const failure = [dynamo, ses].find((s) => s?.status === 'rejected');
    throw failure?.status === 'rejected' ? failure.reason : new Error('local services did not start');
  }
  project.provide('dynamoEndpoint', dynamo.value.endpoint);
  project.provide('sesEndpoint', ses.value.endpoint);
  return teardown;
}

async function external(endpoint: string): Promise<{ endpoint: string; stop: () => Promise<void> }> {
  return { endpoint: endpoint.replace(/\/+$/, ''), stop: async () => {} };
}
