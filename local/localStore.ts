import { join } from 'node:path';
import { QUICK_START_JVM_OPTIONS, startDynamoDbLocal } from './dynamodb';
import { startEmbeddedDynamoDb } from './embeddedDynamoDb';
import { javaCommand, requireJava } from './java';
import { LocalServiceError } from './localServiceError';

/** The DynamoDB `npm start` runs: DynamoDB Local with Java, else the embedded JavaScript store. */
export interface LocalStore {
  readonly endpoint: string;
  /** The DynamoDB Local process (none for the embedded store, which runs in this process). */
  readonly pid?: number;
  /** What it is and where its data is, for the start-up line. */
  readonly description: string;
  stop(): Promise<void>;
}

/**
 * Starts DynamoDB Local when Java 17 or newer is found (`JAVA_HOME`, else `java` on PATH),
 * keeping its files in `<stateDir>/dynamodb`, with `QUICK_START_JVM_OPTIONS`; without one, the embedded store
 * (`startEmbeddedDynamoDb`, dynalite) in `<stateDir>/dynalite`, the description saying why. The
 * two keep their data apart: switching between them starts from empty tables.
 */
export async function startLocalStore(options: {
  readonly stateDir: string;
  readonly inMemory: boolean;
  readonly env?: Readonly<Record<string, string | undefined>>;
}): Promise<LocalStore> {
  const java = javaCommand(options.env);
  let noJava: string | null = null;
  try {
    requireJava(java);
  } catch (error) {
    if (!(error instanceof LocalServiceError)) throw error;
    noJava = (error.details ?? error.message).replace(/\. DynamoDB Local needs.*$/s, '');
  }
  if (noJava === null) {
    const dataDir = join(options.stateDir, 'dynamodb');
    const jvm = { javaCommand: java, jvmOptions: QUICK_START_JVM_OPTIONS };
    const local = await startDynamoDbLocal(options.inMemory ? { inMemory: true, ...jvm } : { dataDir, ...jvm });
    return { ...local, description: `DynamoDB Local${options.inMemory ? ' (in memory)' : ` (data in ${dataDir})`}` };
  }
  const dataDir = join(options.stateDir, 'dynalite');
  const embedded = await startEmbeddedDynamoDb(options.inMemory ? {} : { dataDir });
  return {
    ...embedded,
    description: `embedded store (dynalite, in this process${options.inMemory ? ', in memory' : `, data in ${dataDir}`}): no Java 17 for DynamoDB Local (${noJava}); with Java, DynamoDB Local runs instead`,
  };
}
