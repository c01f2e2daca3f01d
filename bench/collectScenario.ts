import { createHash } from 'node:crypto';
import { getAddress } from 'viem';
import { accountSettingsSchema } from '../functions/domain/account';
import { newTrackedAccount } from '../functions/domain/trackedAccount';
import { DEFAULT_COLLECT_SETTINGS } from '../functions/services/collect/collectSettings';
import { type CollectOutcome } from '../functions/services/collect/collectAccount';
import { memoryCounters, silentLog } from '../functions/shared/observability';
import { createTables, deleteTables } from '../functions/store/createTables';
import { createDocumentClient } from '../functions/store/documentClient';
import { createRepositories } from '../functions/store/repositories';
import { createLocalPipeline } from '../local/localPipeline';
import type { CountedChain } from './collectChain';
import { cpuSince, sampleCpu } from './collectCpu';
import { runNaiveCollector, type NaiveRun } from './collectNaive';
import type { BenchServices } from './collectServices';
import type { WriteMeter, WriteReading } from './collectWriteMeter';

const HOUR = 3_600_000;
/** First poll of an account: two hours, so the warm-up writes two points per account. */
const WARM_UP_BACKFILL_MS = 2 * HOUR;

/** The service's clock and the simulator's, moved together. */
export interface BenchClock {
  now(): number;
  advance(ms: number): Promise<void>;
}

/** A `BenchClock` starting at `startMs` that moves the simulator's clock with its own. */
export function benchClock(services: BenchServices, startMs: number): BenchClock {
  let now = startMs;
  return {
    now: () => now,
    async advance(ms) {
      await services.control.advanceClock(ms);
      now += ms;
    },
  };
}

export interface ScenarioDeps {
  readonly services: BenchServices;
  readonly chain: CountedChain;
  readonly meter: WriteMeter;
  readonly clock: BenchClock;
  /** Concurrent consumers of the collect queue. */
  readonly concurrency: number;
  /** Accounts the naive baseline polls (the first ones of the size). */
  readonly naiveSample: number;
  readonly progress: (line: string) => void;
}

/** Everything measured for one number of accounts. */
export interface SizeMeasurement {
  readonly accounts: number;
  /** Accounts whose measured poll was `collected`. */
  readonly polls: number;
  /** Outcomes other than `collected` (chain failures, already collected, ...), by kind. */
  readonly otherOutcomes: Readonly<Record<string, number>>;
  /** Collected polls that did not bring exactly one new point. */
  readonly pollsNotOnePoint: number;
  readonly wallMs: number;
  /** When the first poll finished, ms into the cycle: the due query, queuing, then one poll. */
  readonly firstPollMs: number;
  readonly chainRequests: number;
  readonly requestsByRoute: ReadonlyMap<string, number>;
  readonly newPoints: number;
  readonly notifyEvents: number;
  readonly writes: WriteReading;
  /** CPU used during the measured cycle by this process (pipeline and simulator) and by DynamoDB Local, ms. */
  readonly cpu: { readonly selfMs: number; readonly otherMs: number | null };
  readonly naive: NaiveRun & { readonly chainRequests: number; readonly writes: WriteReading };
  /** `collect --all` one hour after the measured cycle (one new point per account). */
  readonly manual: { readonly polls: number; readonly newPoints: number; readonly writes: WriteReading };
}

/**
 * One size (its tables and addresses named after `label`): fresh tables, `size` accounts tracked at `1h`, a warm-up cycle (not measured) that
 * backfills two hours, one hour on both clocks, then the measured due cycle (one new point per
 * account); then the naive baseline on the first `naiveSample` accounts, in tables of its own.
 */
export async function measureSize(deps: ScenarioDeps, size: number, label = String(size)): Promise<SizeMeasurement> {
  const { services, chain, meter, clock } = deps;
  const prefix = `bench${label}-`;
  const naivePrefix = `bench${label}naive-`;
  const doc = createDocumentClient(services.client);
  await Promise.all([createTables(services.client, prefix), createTables(services.client, naivePrefix)]);
  try {
    const repos = createRepositories(doc, prefix, { now: clock.now });
    const accounts = benchAccounts(size, label, clock.now());
    const imported = await repos.accounts.importMany(accounts);
    if (imported.created.length !== size) throw new Error(`imported ${imported.created.length} of ${size} accounts`);

    let notifyEvents = 0;
    const collectSettings = { ...DEFAULT_COLLECT_SETTINGS, backfillMs: WARM_UP_BACKFILL_MS };
    const pipeline = createLocalPipeline({
      repos,
      chain: chain.chain,
      log: silentLog,
      counters: memoryCounters(),
      now: clock.now,
      notifyConsumer: async (event) => {
        notifyEvents += event.Records.length;
      },
      collectSettings,
      limitPerShard: size,
      collectConcurrency: deps.concurrency,
    });

    deps.progress(`${size} accounts: warm-up cycle (first polls, not measured)`);
    const warmUp = await pipeline.runCycle({ kind: 'due' }, reportProgress(deps.progress, 'warm-up'));
    const warmUpCollected = warmUp.outcomes.filter((o) => o.kind === 'collected').length;
    if (warmUpCollected !== size) {
      const other = warmUp.outcomes.filter((o) => o.kind !== 'collected').slice(0, 3);
      throw new Error(`warm-up collected ${warmUpCollected} of ${size} accounts (e.g. ${JSON.stringify(other)})`);
    }

    await clock.advance(HOUR);
    notifyEvents = 0;
    chain.reset();
    meter.reset();
    deps.progress(`${size} accounts: measured cycle`);
    const cpuBefore = sampleCpu(services.dynamo.pid);
    const started = performance.now();
    let firstPollMs = Number.NaN;
    const progress = reportProgress(deps.progress, 'measured');
    const cycle = await pipeline.runCycle({ kind: 'due' }, (done, total) => {
      if (done === 1) firstPollMs = performance.now() - started;
      progress(done, total);
    });
    const wallMs = performance.now() - started;
    const cpu = cpuSince(cpuBefore, sampleCpu(services.dynamo.pid));
    const writes = meter.read();
    const requests = chain.requests();
    const measuredEvents = notifyEvents;

    // The CLI's path: `sentinel collect --all` an hour later, one new point each, measured the same way.
    await clock.advance(HOUR);
    meter.reset();
    deps.progress(`${size} accounts: manual cycle (collect --all)`);
    const manualCycle = await pipeline.runCycle({ kind: 'all' });
    const manual = { ...summarizeOutcomes(manualCycle.outcomes), writes: meter.read() };

    const sample = accounts.slice(0, Math.min(deps.naiveSample, size)).map((a) => a.address);
    deps.progress(`${size} accounts: naive baseline on ${sample.length} accounts`);
    chain.reset();
    meter.reset();
    const naive = await runNaiveCollector(
      { chain: chain.chain, client: doc, prefix: naivePrefix, now: clock.now(), retentionMs: collectSettings.retentionMs },
      sample,
    );
    const naiveReading = { ...naive, chainRequests: chain.requests().total, writes: meter.read() };

    return {
      accounts: size,
      ...summarizeOutcomes(cycle.outcomes),
      wallMs,
      firstPollMs,
      cpu,
      chainRequests: requests.total,
      requestsByRoute: requests.byRoute,
      notifyEvents: measuredEvents,
      writes,
      manual,
      naive: naiveReading,
    };
  } finally {
    await Promise.all([deleteTables(services.client, prefix), deleteTables(services.client, naivePrefix)]);
  }
}

/** `size` distinct, deterministic, checksummed addresses (seeded by `label`) tracked at `1h` from `now`. */
function benchAccounts(size: number, label: string, now: number) {
  return Array.from({ length: size }, (_, i) => {
    const address = getAddress(`0x${createHash('sha256').update(`bench:${label}:${i}`).digest('hex').slice(0, 40)}`);
    const settings = accountSettingsSchema.parse({ address, email: `bench-${i}@example.com`, interval: '1h' });
    return newTrackedAccount(settings, now);
  });
}

function summarizeOutcomes(outcomes: readonly CollectOutcome[]) {
  let polls = 0;
  let newPoints = 0;
  let pollsNotOnePoint = 0;
  const otherOutcomes: Record<string, number> = {};
  for (const outcome of outcomes) {
    if (outcome.kind !== 'collected') {
      otherOutcomes[outcome.kind] = (otherOutcomes[outcome.kind] ?? 0) + 1;
      continue;
    }
    polls++;
    newPoints += outcome.newPoints;
    if (outcome.newPoints !== 1) pollsNotOnePoint++;
  }
  return { polls, newPoints, pollsNotOnePoint, otherOutcomes };
}

/** Reports a long cycle's progress every 20 %. */
function reportProgress(progress: (line: string) => void, phase: string): (done: number, total: number) => void {
  let next = 0.2;
  return (done, total) => {
    if (total < 500 || done / total < next) return;
    progress(`  ${phase}: ${done}/${total} polls`);
    next += 0.2;
  };
}
