import type { TestProject } from 'vitest/node';
import { LONG_RUN_JVM_OPTIONS, startDynamoDbLocal } from '../../local/dynamodb';
import { startSesLocal } from '../../local/ses';

declare module 'vitest' {
  export interface ProvidedContext {
    /** DynamoDB Local shared by the whole run; each test file uses its own table prefix (see `testTables`). */
    dynamoEndpoint: string;
    /** The local SES endpoint; its `/store` lists sent mail (see `sesStore`). */
    sesEndpoint: string;
  }
}

/** The run's local services: their endpoints, and how to stop them. */
interface RunServices {
  readonly dynamoEndpoint: string;
  readonly sesEndpoint: string;
  stop(): Promise<void>;
}

/** The services of a run and how many projects use them. */
interface SharedServices {
  readonly started: Promise<RunServices>;
  users: number;
}

/**
 * Where the run's services are kept between the projects' setups: each project loads this file in a
 * module runner of its own, and all of them run in vitest's main process.
 */
const SHARED = Symbol.for('portfolio-sentinel.test-services');

/**
 * Starts the real local services the integration and end-to-end tests talk to, once per run (the
 * projects that list this file share them), on free ports, and hands their endpoints to the tests
 * through `inject()`. The last project's teardown stops them. `DYNAMODB_ENDPOINT` and `SES_ENDPOINT`
 * point the run at already running services instead.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const holder = globalThis as { [SHARED]?: SharedServices };
  const shared = (holder[SHARED] ??= { started: startServices(process.env), users: 0 });
  shared.users += 1;
  const teardown = async (): Promise<void> => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete holder[SHARED];
    await (await shared.started.catch(() => undefined))?.stop();
  };
  const services = await shared.started.catch(async (error: unknown) => {
    await teardown();
    throw error;
  });
  project.provide('dynamoEndpoint', services.dynamoEndpoint);
  project.provide('sesEndpoint', services.sesEndpoint);
  return teardown;
}

async function startServices(env: NodeJS.ProcessEnv): Promise<RunServices> {
  const started = await Promise.allSettled([
    env['DYNAMODB_ENDPOINT'] ? external(env['DYNAMODB_ENDPOINT']) : startDynamoDbLocal({ inMemory: true, jvmOptions: LONG_RUN_JVM_OPTIONS }),
    // Test files look their mail up by recipient after sending: keep far more than the inbox default.
    env['SES_ENDPOINT'] ? external(env['SES_ENDPOINT']) : startSesLocal({ maxEmails: 20_000, maxStoreBytes: 1024 * 1024 * 1024 }),
  ]);
  const stops = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value.stop] : []));
  const stop = async (): Promise<void> => {
    await Promise.all(stops.map((each) => each()));
  };
  const [dynamo, ses] = started;
  if (dynamo?.status !== 'fulfilled' || ses?.status !== 'fulfilled') {
    await stop();
    const failure = [dynamo, ses].find((s) => s?.status === 'rejected');
    throw failure?.status === 'rejected' ? failure.reason : new Error('local services did not start');
  }
  return { dynamoEndpoint: dynamo.value.endpoint, sesEndpoint: ses.value.endpoint, stop };
}

async function external(endpoint: string): Promise<{ endpoint: string; stop: () => Promise<void> }> {
  return { endpoint: endpoint.replace(/\/+$/, ''), stop: async () => {} };
}
