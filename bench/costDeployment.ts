import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { getAddress } from 'viem';
import { accountSettingsSchema } from '../functions/domain/account';
import { delegateDigest, formatDelegateMark } from '../functions/domain/delegateMark';
import type { Interval } from '../functions/domain/interval';
import { PHASE_SPREAD_MINUTES } from '../functions/domain/schedule';
import { newTrackedAccount } from '../functions/domain/trackedAccount';
import type { CollectMessage } from '../functions/messages/collectJob';
import type { MessageQueue } from '../functions/queue/messageQueue';
import { dispatchDue } from '../functions/services/collect/dispatchDue';
import { mapConcurrent } from '../functions/shared/concurrency';
import { createTables, deleteTables } from '../functions/store/createTables';
import { createDocumentClient } from '../functions/store/documentClient';
import { createRepositories } from '../functions/store/repositories';
import { InProcessQueue } from '../local/queue/inProcessQueue';
import type { BenchClock } from './collectScenario';
import type { BenchServices } from './collectServices';
import type { CapacityMeter } from './costMeter';
import { Usage } from './costUsage';

const MINUTE = 60_000;

/**
 * What runs once per deployment, measured at the real number of accounts: dispatch every minute
 * and how its messages reach collect (how many messages, batches, SQS requests).
 */
export interface DeploymentRun {
  readonly accounts: number;
  readonly windowMs: number;
  /** Dispatch: invocations, billed ms, its log lines and EMF documents (in `usage`). */
  readonly usage: Usage;
  readonly dispatchReadUnits: number;
  readonly dispatchWriteUnits: number;
  /** Messages dispatch queued: curve polls and delegate-watch jobs. */
  readonly polls: number;
  readonly watchJobs: number;
  readonly watchedAccounts: number;
  /** Batches of up to 10 the collect queue delivered: collect invocations. */
  readonly collectBatches: number;
  /** SQS requests of the collect queue: send batches, and each delivered batch's receive and delete. */
  readonly sqsRequests: number;
}

/**
 * Dispatch at `accounts` accounts (no chain, no collect work): fresh tables, the accounts imported,
 * a first run that claims their first polls and a delegate mark on each (as their first poll would
 * write), the other minutes of the phase spread, then `windowMs` a minute at a time: dispatch timed and metered, its messages drained from
 * an in-process collect queue in batches of 10 by `concurrency` consumers that only count them.
 */
export async function runDeployment(
  deps: { services: BenchServices; meter: CapacityMeter; clock: BenchClock; concurrency: number; progress: (line: string) => void },
  interval: Interval,
  accounts: number,
  windowMs: number,
): Promise<DeploymentRun> {
  const { services, clock, meter } = deps;
  const prefix = `costdeploy${interval}-`;
  await createTables(services.client, prefix);
  try {
    deps.progress(`deployment at ${accounts} accounts (${interval}): import, a first run, then dispatch alone for ${windowMs / MINUTE} minutes`);
    const repos = createRepositories(createDocumentClient(services.client), prefix, { now: clock.now });
    const tracked = Array.from({ length: accounts }, (_, i) => {
      const address = getAddress(`0x${createHash('sha256').update(`costdeploy:${interval}:${i}`).digest('hex').slice(0, 40)}`);
      return newTrackedAccount(accountSettingsSchema.parse({ address, email: `deploy-${i}@example.com`, interval }), clock.now());
    });
    await repos.accounts.importMany(tracked);

    const usage = new Usage();
    let polls = 0;
    let watchJobs = 0;
    let watchedAccounts = 0;
    let collectBatches = 0;
    const collectQueue = new InProcessQueue<CollectMessage>({
      name: 'cost-deploy-collect',
      batchSize: 10,
      maxReceiveCount: 1,
      consumer: async () => {
        collectBatches++;
        usage.sqsRequests += 2; // the event source's receive and its delete of the batch
      },
    });
    const countedCollect: MessageQueue<CollectMessage> = {
      send: async (entries) => {
        usage.sqsRequests += Math.ceil(entries.length / 10);
        for (const { body } of entries) {
          if ('kind' in body) {
            watchJobs++;
            watchedAccounts += body.accounts.length;
          } else polls++;
        }
        return collectQueue.send(entries);
      },
    };
    const log = usage.log('dispatch');
    const counters = usage.counters('dispatch');
    const dispatch = () =>
      dispatchDue({ accounts: repos.accounts, schedule: repos.schedule, collectQueue: countedCollect, log, counters, now: clock.now, limitPerShard: accounts });

    await dispatch();
    counters.flush();
    const mark = formatDelegateMark({ digest: delegateDigest([]), recheckAt: null });
    await mapConcurrent(tracked, 16, (account) => repos.accounts.setDelegateMark(account.address, mark));
    await collectQueue.drain({ concurrency: deps.concurrency });
    // The rest of the phase spread: the slots of the first interval, still the accounts' start (as in costScenario).
    for (let m = 1; m < PHASE_SPREAD_MINUTES; m++) {
      await clock.advance(MINUTE);
      await dispatch();
      await collectQueue.drain({ concurrency: deps.concurrency });
    }
    usage.reset();
    polls = watchJobs = watchedAccounts = collectBatches = 0;
    meter.reset();

    deps.progress(`deployment at ${accounts} accounts (${interval}): measured minutes`);
    for (let m = 1; m <= Math.round(windowMs / MINUTE); m++) {
      await clock.advance(MINUTE);
      const started = performance.now();
      await dispatch();
      counters.flush();
      usage.invocation('dispatch', performance.now() - started);
      await collectQueue.drain({ concurrency: deps.concurrency });
    }
    const capacity = meter.read();
    const ours = (units: ReadonlyMap<string, number>) => [...units].filter(([table]) => table.startsWith(prefix)).reduce((a, [, u]) => a + u, 0);
    return {
      accounts,
      windowMs,
      usage,
      dispatchReadUnits: ours(capacity.readUnits),
      dispatchWriteUnits: ours(capacity.writeUnits),
      polls,
      watchJobs,
      watchedAccounts,
      collectBatches,
      sqsRequests: usage.sqsRequests,
    };
  } finally {
    await deleteTables(services.client, prefix);
    meter.reset();
  }
}
