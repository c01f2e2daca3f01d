import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { createChainClient } from '../../../functions/chain/chainClient';
import { TokenBucket } from '../../../functions/shared/rateLimiter';
import { DEFAULT_COLLECT_SETTINGS } from '../../../functions/services/collect/collectSettings';
import type { NotifyMessage } from '../../../functions/messages/notifyMessage';
import { queuedNotices } from './queuedNotices';
import type { CollectMessage } from '../../../functions/messages/collectJob';
import { dispatchDue } from '../../../functions/services/collect/dispatchDue';
import { memoryCounters, silentLog, type Log } from '../../../functions/shared/observability';
import { createRepositories, type Repositories } from '../../../functions/store/repositories';
import { newTrackedAccount } from '../../../functions/domain/trackedAccount';
import { accountSettingsSchema } from '../../../functions/domain/account';
import { createLocalPipeline } from '../../../local/localPipeline';
import { startSimulator } from '../../../local/sim';
import { SimControlClient } from '../../../local/sim/controlClient';
import { testTables, type TestTables } from '../testTables';
import { perFile } from '../perFile';

/**
 * 2030-01-07 00:00 UTC: a Monday, far from DST changes, and after the machine's date: DynamoDB
 * Local deletes items whose TTL has passed in wall-clock time, so a simulated time in the past
 * would lose snapshots (35 days of TTL) in the middle of a test.
 */
export const SIM_START = Date.UTC(2030, 0, 7);

/**
 * The simulator (clock stopped: it moves only when a test advances it), the repositories over
 * this file's tables, and the pipeline with a recording notify consumer. `now` of the service is
 * the simulator's clock, so "an hour later" is one `advance(HOUR)`.
 */
/** A calm account: little drift and volatility, so only what a test does moves its drawdown. */
export const CALM = { annualDrift: 0.05, annualVolatility: 0.02 };

export async function startPipelineHarness(tables: TestTables, options: { seed?: number; log?: Log } = {}) {
  const sim = await startSimulator({ seed: options.seed ?? 7, clock: { startMs: SIM_START, speed: 0 }, historyDays: 30 });
  const control = new SimControlClient(sim.controlUrl);
  let now = SIM_START;
  const clock = () => now;
  const repos: Repositories = createRepositories(tables.client, tables.prefix, { now: clock });
  const chain = createChainClient({
    nodeUrl: sim.nodeUrl,
    indexerUrl: sim.indexerUrl,
    rps: 1_000,
    timeoutMs: 2_000,
    maxRetries: 3,
    retryBaseDelayMs: 5,
    retryMaxDelayMs: 20,
    maxRetryAfterMs: 1_100,
    rateLimiter: new TokenBucket({ ratePerSecond: 1_000 }),
  });
  const notified: NotifyMessage[] = [];
  const counters = memoryCounters();
  const recordNotify = async (event: SQSEvent): Promise<SQSBatchResponse> => {
    for (const record of event.Records) notified.push(...queuedNotices(JSON.parse(record.body)));
    return { batchItemFailures: [] };
  };
  // Queue time is virtual: waiting out a visibility timeout after a failed delivery is instant.
  let queueTime = SIM_START;
  const queueClock = { now: () => queueTime, sleep: async (ms: number) => void (queueTime += ms) };
  const pipeline = createLocalPipeline({
    queueClock,
    repos,
    chain,
    log: options.log ?? silentLog,
    counters,
    now: clock,
    notifyConsumer: recordNotify,
    collectSettings: { ...DEFAULT_COLLECT_SETTINGS },
  });

  return {
    sim,
    control,
    repos,
    chain,
    pipeline,
    notified,
    counters,
    now: clock,
    /** Moves both clocks forward. */
    async advance(ms: number): Promise<void> {
      await control.advanceClock(ms);
      now += ms;
    },
    /** One scheduled dispatch run at the harness's now; returns what it queued on the collect queue (poll jobs and delegate-watch jobs). */
    async dispatch(watchBatchSize = 100): Promise<CollectMessage[]> {
      const queued: CollectMessage[] = [];
      await dispatchDue({
        accounts: repos.accounts,
        schedule: repos.schedule,
        collectQueue: { send: async (entries) => (queued.push(...entries.map((e) => e.body)), { sent: entries.map((e) => e.id), failed: [] }) },
        log: silentLog,
        now: clock,
        limitPerShard: 1_000,
        watchBatchSize,
      });
      return queued;
    },
    /** Creates a simulator account and tracks it (settings in CLI form). */
    async track(label: string, settings: Record<string, unknown> = {}, profile?: Record<string, number>, existing?: { address: string }) {
      const created = existing ?? (await control.createAccount({ label, ...(profile ? { profile } : {}) } as never));
      const parsed = accountSettingsSchema.parse({ address: created.address, email: `${label}@example.com`, ...settings });
      await repos.accounts.create(newTrackedAccount(parsed, now));
      return created;
    },
    async close(): Promise<void> {
      await pipeline.stop();
      await sim.close();
    },
  };
}

/** One started pipeline harness. */
export type PipelineHarness = Awaited<ReturnType<typeof startPipelineHarness>>;

/**
 * The collection pipeline's world for one test file (call at the top of a file or `describe`):
 * this file's tables and `startPipelineHarness` over them, started before the tests and closed
 * after them.
 */
export function pipelineHarness(options: { seed?: number; log?: Log } = {}): PipelineHarness & { readonly tables: TestTables } {
  const tables = testTables();
  return perFile(
    'the pipeline harness',
    async () => Object.assign(await startPipelineHarness(tables, options), { tables }),
    (h) => h.close(),
  );
}
