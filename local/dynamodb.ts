import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawnManaged, type ManagedProcess } from './childProcess';
import { freePort } from './freePort';
import { javaCommand, requireJava } from './java';
import { LocalServiceError } from './localServiceError';

export interface DynamoDbLocalOptions {
  /** Port to listen on; a free one when omitted. */
  readonly port?: number;
  /** Keep nothing on disk (the default unless `dataDir` is given). */
  readonly inMemory?: boolean;
  /** Directory for the database file (created if missing); exclusive with `inMemory: true`. */
  readonly dataDir?: string;
  /** How long to wait for the first answer; default 60 s. */
  readonly startTimeoutMs?: number;
  /** The java executable; default `$JAVA_HOME/bin/java` or `java` on PATH. */
  readonly javaCommand?: string;
  /** Options for the JVM, before `-jar` (e.g. {@link QUICK_START_JVM_OPTIONS}); none by default. */
  readonly jvmOptions?: readonly string[];
}

/**
 * JVM options for a DynamoDB Local that starts often and serves one developer's stack: the client
 * compiler only and the serial collector. It answers in about 60 % of the CPU of a default start
 * (4.4 s against 7.5 s here, the first tables created) and half the time on a loaded machine; the
 * optimizing compiler's threads would only pay off under a long, heavy load.
 */
export const QUICK_START_JVM_OPTIONS: readonly string[] = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

/**
 * JVM options for a DynamoDB Local under a long, heavy load (a test run): the serial collector, the
 * optimizing compiler kept. Over the integration tests (4 minutes, 135 files) the JVM used 85 s of CPU
 * against 108 s with the defaults (G1's concurrent threads) and 92 s with {@link QUICK_START_JVM_OPTIONS},
 * whose client-only compiler wins on short runs only.
 */
export const LONG_RUN_JVM_OPTIONS: readonly string[] = ['-XX:+UseSerialGC'];

/** A running DynamoDB Local. */
export interface DynamoDbLocal {
  readonly endpoint: string;
  readonly pid: number;
  /** Stops it (SIGTERM, SIGKILL after a grace period); resolves once the JVM has exited. */
  stop(): Promise<void>;
}

const SERVICE = 'DynamoDB Local';
const PORT_ATTEMPTS = 3;

/** Where the npm package `amplify-dynamodb-simulator` keeps `DynamoDBLocal.jar`. */
export function dynamoDbLocalJarDir(): string {
  const packageJson = createRequire(import.meta.url).resolve('amplify-dynamodb-simulator/package.json');
  return join(dirname(packageJson), 'emulator');
}

/**
 * Starts AWS's DynamoDB Local (`-sharedDb`, so any region and credentials see the same tables)
 * with the machine's Java and waits until it answers `ListTables`. The JVM does not outlive
 * this process. Throws `LocalServiceError` when Java is missing or too old, or it does not start.
 */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  if (options.inMemory === true && options.dataDir !== undefined) {
    throw new LocalServiceError(SERVICE, 'inMemory and dataDir are mutually exclusive');
  }
  const java = options.javaCommand ?? javaCommand();
  requireJava(java);
  const storage = options.dataDir === undefined ? ['-inMemory'] : ['-dbPath', ensureDir(options.dataDir)];
  const jarDir = dynamoDbLocalJarDir();

  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    const args = [
      ...(options.jvmOptions ?? []),
      `-Djava.library.path=${join(jarDir, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(jarDir, 'DynamoDBLocal.jar'),
      ...storage,
      '-sharedDb',
      '-disableTelemetry',
      '-port',
      String(port),
    ];
    let child: ManagedProcess;
    try {
      child = await spawnManaged(java, args, { cwd: jarDir });
    } catch (error) {
      throw new LocalServiceError(SERVICE, `could not run ${java}`, { cause: error });
    }
    const endpoint = `http://127.0.0.1:${port}`;
    const outcome = await waitUntilReady(endpoint, child, options.startTimeoutMs ?? 60_000);
    if (outcome === 'ready') {
      return { endpoint, pid: child.pid, stop: async () => void (await child.stop()) };
    }
    await child.stop();
    const portTaken = /BindException|Address already in use/.test(child.output());
    if (portTaken && options.port === undefined && attempt < PORT_ATTEMPTS) continue;
    const reason = outcome === 'exited' ? `exited during start-up` : `did not answer within ${options.startTimeoutMs ?? 60_000} ms`;
    throw new LocalServiceError(SERVICE, `${reason} on port ${port}. Output:\n${child.output().trim()}`);
  }
}

async function waitUntilReady(endpoint: string, child: ManagedProcess, timeoutMs: number): Promise<'ready' | 'exited' | 'timeout'> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 1_000 },
  });
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      if (child.exitStatus()) return 'exited';
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(2_000) });
        return 'ready';
      } catch {
        await sleep(100);
      }
    }
    return 'timeout';
  } finally {
    client.destroy();
  }
}

function ensureDir(dir: string): string {
  const absolute = resolve(dir);
  mkdirSync(absolute, { recursive: true });
  return absolute;
}
