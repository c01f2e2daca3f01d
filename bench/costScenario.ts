import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { getAddress } from 'viem';
import { accountSettingsSchema } from '../functions/domain/account';
import { INTERVAL_MS, type Interval } from '../functions/domain/interval';
import { PHASE_SPREAD_MINUTES } from '../functions/domain/schedule';
import { newTrackedAccount } from '../functions/domain/trackedAccount';
import { createCollectHandler } from '../functions/handlers/collect';
import type { CollectMessage } from '../functions/messages/collectJob';
import type { NotifyEvent } from '../functions/messages/notifyMessage';
import type { MessageQueue } from '../functions/queue/messageQueue';
import { DEFAULT_COLLECT_SETTINGS } from '../functions/services/collect/collectSettings';
import { dispatchDue } from '../functions/services/collect/dispatchDue';
import { createTables, deleteTables } from '../functions/store/createTables';
import { createDocumentClient } from '../functions/store/documentClient';
import { createRepositories, type Repositories } from '../functions/store/repositories';
import { TABLES, tableName } from '../functions/store/tableDefinitions';
import { InProcessQueue } from '../local/queue/inProcessQueue';
import type { CountedChain } from './collectChain';
import type { BenchClock } from './collectScenario';
import type { BenchServices } from './collectServices';
import type { CapacityMeter, CapacityReading } from './costMeter';
import { Usage } from './costUsage';

const MINUTE = 60_000;
/** Rough per-item storage overhead DynamoDB adds for billing (bytes). */
const ITEM_OVERHEAD_BYTES = 100;
const SCAN_SEGMENTS = 4;

/** What one interval's run measured, for `accounts` accounts over `windowMs` of simulated time. */
export interface IntervalRun {
  readonly interval: Interval;
  readonly accounts: number;
  readonly windowMs: number;
  readonly polls: number;
  readonly usage: Usage;
  readonly capacity: CapacityReading;
  /** Steady-state stored bytes per account, by table (TTL'd series extrapolated to their lifetime). */
  readonly storedBytesPerAccount: ReadonlyMap<string, number>;
  /** Dispatch runs that found nobody due (a deployment pays them whatever its size). */
  readonly idleDispatchMs: number;
  readonly idleDispatches: number;
  /** What the collect instances did in the measured window. */
  readonly collect: CollectLoad;
}

/** The measured window's collect work, for the pacing figures. */
export interface CollectLoad {
  /** Chain requests the collect instances sent (retries included). */
  readonly chainRequests: number;
  /**
   * CPU of this process while the collect queue drained, ms: collect's own work plus the in-process
   * chain simulator answering it, so an upper bound of collect's CPU (DynamoDB Local is another process).
   */
  readonly cpuMs: number;
  /** Most instances that ran a batch at the same time. */
  readonly peakInstances: number;
}

/**
 * The deployed collect tier: at most `count` instances (the event source's `maxConcurrency`), each
 * with its own chain client and token bucket at its share of the budget (`CHAIN_RPS`).
 */
export interface CollectTier {
  readonly count: number;
  /** A new instance's chain client, its own bucket on the clock `now`. */
  readonly chain: (now: () => number) => CountedChain;
}

export interface CostScenarioDeps {
  readonly services: BenchServices;
  readonly collectTier: CollectTier;
  readonly meter: CapacityMeter;
  readonly clock: BenchClock;
  readonly progress: (line: string) => void;
  /** Runs after the accounts are imported, before the first cycle (e.g. seeding curve history). */
  readonly beforeFirstCycle?: (repos: Repositories, addresses: readonly string[]) => Promise<void>;
}

/**
 * One interval: fresh tables, `accounts` accounts tracked at `interval`, a first cycle of
 * `PHASE_SPREAD_MINUTES` minutes in which every account makes its first poll (they backfill; not
 * measured), then `windowMs` of simulated time a minute at a time, as
 * the scheduler runs dispatch: dispatch (timed, as the `dispatch` Lambda), the collect queue
 * drained in batches of 10 by up to `collectTier.count` instances, each batch on a free instance
 * and waiting on that instance's own token bucket (timed, as one `collect` invocation), the notify
 * queue counted. DynamoDB capacity is metered on the client.
 */
export async function runInterval(deps: CostScenarioDeps, interval: Interval, accounts: number, windowMs: number): Promise<IntervalRun> {
  const { services, clock, meter } = deps;
  const prefix = `cost${interval}-`;
  const doc = createDocumentClient(services.client);
  await createTables(services.client, prefix);
  try {
    const usage = new Usage();
    const repos = createRepositories(doc, prefix, { now: clock.now });
    const tracked = Array.from({ length: accounts }, (_, i) => {
      const address = getAddress(`0x${createHash('sha256').update(`cost:${interval}:${i}`).digest('hex').slice(0, 40)}`);
      return newTrackedAccount(accountSettingsSchema.parse({ address, email: `cost-${i}@example.com`, interval }), clock.now());
    });
    await repos.accounts.importMany(tracked);
    await deps.beforeFirstCycle?.(
      repos,
      tracked.map((a) => a.address),
    );

    const notifyQueue = new InProcessQueue<NotifyEvent>({ name: 'cost-notify', consumer: async () => undefined, maxReceiveCount: 5 });
    const countedNotify: MessageQueue<NotifyEvent> = {
      send: async (entries) => {
        usage.notifySqsRequests += Math.ceil(entries.length / 10);
        usage.notifyEvents += entries.length;
        return notifyQueue.send(entries);
      },
    };
    const counters = usage.counters('collect');
    let polls = 0;
    // The buckets' clock: real time, plus the simulated minutes' idle time (each minute's work runs
    // at once here, so without it a bucket would meet the next minute's batch not yet refilled).
    let bucketOffsetMs = 0;
    const bucketNow = () => performance.now() + bucketOffsetMs;
    const instances = Array.from({ length: deps.collectTier.count }, () => {
      const chain = deps.collectTier.chain(bucketNow);
      const handler = createCollectHandler({
        chain: chain.chain,
        repos,
        events: countedNotify,
        log: usage.log('collect'),
        counters,
        flush: counters.flush,
        // First polls backfill two hours, as in bench:collect (they are not measured; steady-state polls fetch since their cursor).
        settings: { ...DEFAULT_COLLECT_SETTINGS, backfillMs: 2 * 3_600_000 },
        now: clock.now,
        onOutcome: (o) => void (o.kind === 'collected' && polls++),
      });
      return { chain, handler };
    });
    const idle = [...instances];
    let peakInstances = 0;
    const collectQueue = new InProcessQueue<CollectMessage>({
      name: 'cost-collect',
      batchSize: 10,
      maxReceiveCount: 3,
      consumer: async (event, context) => {
        // The queue runs at most `count` batches at once, so an instance is always free; the last one used is warm.
        const instance = idle.pop();
        if (!instance) throw new Error('no idle collect instance');
        peakInstances = Math.max(peakInstances, instances.length - idle.length);
        const started = performance.now();
        try {
          return await instance.handler(event, context);
        } finally {
          usage.invocation('collect', performance.now() - started);
          usage.sqsRequests += 2; // the event source's receive and its delete of the batch
          idle.push(instance);
        }
      },
    });
    const countedCollect: MessageQueue<CollectMessage> = {
      send: async (entries) => {
        usage.sqsRequests += Math.ceil(entries.length / 10);
        return collectQueue.send(entries);
      },
    };
    const dispatchLog = usage.log('dispatch');
    let idleDispatchMs = 0;
    let idleDispatches = 0;
    let collectCpuMs = 0;
    const cycle = async (measured: boolean) => {
      const started = performance.now();
      const { dispatched } = await meter.during('dispatch', () =>
        dispatchDue({
          accounts: repos.accounts,
          schedule: repos.schedule,
          collectQueue: countedCollect,
          log: dispatchLog,
          now: clock.now,
          limitPerShard: 1_000,
        }),
      );
      const ms = performance.now() - started;
      if (measured) {
        usage.invocation('dispatch', ms);
        if (dispatched.length === 0) {
          idleDispatchMs += Math.max(1, Math.ceil(ms));
          idleDispatches++;
        }
      }
      const cpuBefore = process.cpuUsage();
      await collectQueue.drain({ concurrency: deps.collectTier.count });
      if (measured) collectCpuMs += cpuMs(process.cpuUsage(cpuBefore));
      await notifyQueue.drain();
    };

    deps.progress(`${interval}: ${accounts} accounts, first polls (not measured)`);
    // Accounts are spread over the first minutes of each interval (their phase): every one makes its
    // first poll before the measured window, which then holds regular polls only.
    for (let m = 0; m < PHASE_SPREAD_MINUTES; m++) {
      if (m > 0) await clock.advance(MINUTE);
      await cycle(false);
      bucketOffsetMs += MINUTE;
    }
    usage.reset();
    polls = 0;
    peakInstances = 0;
    collectCpuMs = 0;
    for (const instance of instances) instance.chain.reset();
    // The bench's own scan is not the service's: the meter starts after it.
    const storedBefore = await tableBytes(services, prefix);
    meter.reset();

    const minutes = Math.round(windowMs / MINUTE);
    for (let m = 1; m <= minutes; m++) {
      await clock.advance(MINUTE);
      bucketOffsetMs += MINUTE;
      await cycle(true);
      if (m % Math.max(1, Math.floor(minutes / 5)) === 0) deps.progress(`${interval}: ${m}/${minutes} simulated minutes, ${polls} polls`);
    }
    const capacity = meter.read();
    const storedAfter = await tableBytes(services, prefix);
    return {
      interval,
      accounts,
      windowMs,
      polls,
      usage,
      capacity,
      storedBytesPerAccount: steadyState(storedBefore, storedAfter, windowMs, clock.now(), accounts),
      idleDispatchMs,
      idleDispatches,
      collect: { chainRequests: instances.reduce((sum, i) => sum + i.chain.requests().total, 0), cpuMs: collectCpuMs, peakInstances },
    };
  } finally {
    await deleteTables(services.client, prefix);
    meter.reset();
  }
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

/**
 * Per table: bytes of items without TTL, bytes of items with one, how many records those hold (an
 * item, or each point of a curve bucket) and their mean remaining life.
 */
interface TableBytes {
  readonly fixed: number;
  readonly expiring: number;
  readonly expiringRecords: number;
  readonly meanExpiresAtMs: number;
}

/** A curve bucket's slot attribute (`p<slot>`, `m<offset ms>`; see `functions/store/curveBucket.ts`). */
const CURVE_SLOT = /^[pm]\d+$/;

/** Records an item holds: the points of a curve bucket, otherwise the item itself. */
function recordsIn(table: string, item: Record<string, AttributeValue>): number {
  if (table !== 'curves' || !item.series?.S?.endsWith('#b')) return 1;
  return Object.keys(item).filter((name) => CURVE_SLOT.test(name)).length;
}

async function tableBytes(services: BenchServices, prefix: string): Promise<Map<string, TableBytes>> {
  const out = new Map<string, TableBytes>();
  for (const definition of Object.values(TABLES)) {
    let fixed = 0;
    let expiring = 0;
    let expiringRecords = 0;
    let expiringItems = 0;
    let expiresSum = 0;
    // Parallel segments: a table with months of seeded history is scanned several times faster.
    await Promise.all(
      Array.from({ length: SCAN_SEGMENTS }, async (_, segment) => {
        let start: Record<string, AttributeValue> | undefined;
        do {
          const page = await services.client.send(
            new ScanCommand({ TableName: tableName(prefix, definition.id), ExclusiveStartKey: start, Segment: segment, TotalSegments: SCAN_SEGMENTS }),
          );
          for (const item of page.Items ?? []) {
            const bytes = itemBytes(item) + ITEM_OVERHEAD_BYTES * (1 + (definition.globalIndexes?.length ?? 0));
            const ttl = definition.ttlAttribute ? item[definition.ttlAttribute]?.N : undefined;
            if (ttl === undefined) fixed += bytes;
            else {
              expiring += bytes;
              expiringRecords += recordsIn(definition.id, item);
              expiringItems++;
              expiresSum += Number(ttl) * 1000;
            }
          }
          start = page.LastEvaluatedKey;
        } while (start);
      }),
    );
    out.set(definition.id, { fixed, expiring, expiringRecords, meanExpiresAtMs: expiringItems ? expiresSum / expiringItems : 0 });
  }
  return out;
}

/**
 * Steady-state bytes per account: items without TTL as they are at the end; records with TTL that
 * grew in number over the window (a series: snapshots, curve points) keep growing at that rate
 * until they expire, so the table holds (records per ms × their lifetime) of them at their mean
 * size, a curve bucket's bytes shared by its points (the seeded history's buckets are mostly full,
 * so that is the steady size per point, bucket overhead included); TTL'd items that were only
 * rewritten count as they are.
 */
function steadyState(before: Map<string, TableBytes>, after: Map<string, TableBytes>, windowMs: number, now: number, accounts: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const [table, end] of after) {
    const grownRecords = end.expiringRecords - (before.get(table)?.expiringRecords ?? 0);
    const lifetimeMs = end.expiringRecords ? Math.max(0, end.meanExpiresAtMs - now) : 0;
    const meanRecordBytes = end.expiringRecords ? end.expiring / end.expiringRecords : 0;
    const expiringSteady = grownRecords > 0 ? (grownRecords / windowMs) * lifetimeMs * meanRecordBytes : end.expiring;
    out.set(table, (end.fixed + expiringSteady) / accounts);
  }
  return out;
}

/** DynamoDB's item size: attribute names plus values (strings and binaries by length, numbers ~1 byte per 2 digits). */
export function itemBytes(item: Record<string, AttributeValue>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) bytes += Buffer.byteLength(name) + valueBytes(value);
  return bytes;
}

function valueBytes(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined) return Math.ceil(value.N.replace(/^-|\./g, '').length / 2) + 1;
  if (value.B !== undefined) return value.B.length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.L !== undefined) return 3 + value.L.reduce((sum, v) => sum + 1 + valueBytes(v), 0);
  if (value.M !== undefined) return 3 + Object.entries(value.M).reduce((sum, [k, v]) => sum + 1 + Buffer.byteLength(k) + valueBytes(v), 0);
  if (value.SS !== undefined) return value.SS.reduce((s, v) => s + Buffer.byteLength(v), 0);
  if (value.NS !== undefined) return value.NS.reduce((s, v) => s + Math.ceil(v.length / 2) + 1, 0);
  return 0;
}

/** Minutes of simulated time per interval: enough polls per account to average over, and a run of minutes. */
export function windowFor(interval: Interval): number {
  return Math.max(10 * MINUTE, 2 * INTERVAL_MS[interval]);
}
