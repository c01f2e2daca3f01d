import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient } from '../functions/store/documentClient';
import { startDynamoDbLocal, type DynamoDbLocal } from '../local/dynamodb';
import { SimControlClient, startSimulator, type RunningSimulator } from '../local/sim';

/** The local services the collection benchmark runs against. */
export interface BenchServices {
  readonly dynamo: DynamoDbLocal;
  readonly client: DynamoDBClient;
  readonly sim: RunningSimulator;
  readonly control: SimControlClient;
  /** Stops everything started (idempotent). */
  stop(): Promise<void>;
}

/**
 * Starts DynamoDB Local in memory and the chain simulator, both on free ports: the simulator's
 * clock stopped at `startMs` (it moves only when advanced), every chain route answering after
 * `latencyMs`, addresses nobody created answered with generated histories (`historyDays` long,
 * the simulator's default 30 unless given).
 */
export async function startBenchServices(options: { startMs: number; latencyMs: number; historyDays?: number }): Promise<BenchServices> {
  const stops: (() => Promise<void>)[] = [];
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      for (const stopOne of stops.reverse()) await stopOne().catch(() => undefined);
    })();
    return stopped;
  };
  try {
    const dynamo = await startDynamoDbLocal({ inMemory: true });
    stops.push(() => dynamo.stop());
    const client = createDynamoDbClient({ endpoint: dynamo.endpoint });
    stops.push(async () => client.destroy());
    const sim = await startSimulator({
      port: 0,
      seed: 11,
      clock: { startMs: options.startMs, speed: 0 },
      unknownAccounts: 'generate',
      ...(options.historyDays !== undefined ? { historyDays: options.historyDays } : {}),
    });
    stops.push(() => sim.close());
    const control = new SimControlClient(sim.controlUrl);
    await control.setFaults({ global: { latencyMs: options.latencyMs } });
    return { dynamo, client, sim, control, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
