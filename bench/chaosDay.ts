/**
 * One simulated day of the chaos run (`npm run bench:chaos`, `bench/chaos.ts`), fault-free or with
 * the faults of `CHAOS_SCHEDULE`: DynamoDB Local and the local SES (endpoints given), the chain
 * simulator over HTTP (one per run, same seed, generated history for every account), collect and
 * report dispatch on a simulated clock (`local/virtualClock.ts`), the in-process queues with the
 * deployed concurrency and redelivery, the deployed collect, notify and daily-report handlers.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { getAddress } from 'viem';
import { resolveSigner } from '../functions/chain/resolveSigner';
import { loadSettings } from '../functions/config/settings';
import { accountSettingsSchema } from '../functions/domain/account';
import { newTrackedAccount } from '../functions/domain/trackedAccount';
import { defaultRecipientSettings, recipientSettingsSchema } from '../functions/domain/recipientSchedule';
import { saveRecipient } from '../functions/services/report/schedule/saveRecipient';
import { sesSenderFrom } from '../functions/runtime/factories';
import { memoryCounters, silentLog } from '../functions/shared/observability';
import { createTables, deleteTables } from '../functions/store/createTables';
import { createDocumentClient, createDynamoDbClient } from '../functions/store/documentClient';
import { createRepositories } from '../functions/store/repositories';
import { DEFAULT_COLLECT_CONCURRENCY } from '../infra/config/chainRateBudget';
import { FUNCTION_SIZING } from '../infra/config/functionSizing';
import { VISIBILITY_FACTOR } from '../infra/constructs/WorkQueue';
import { createLocalSystem } from '../local/localSystem';
import { SimControlClient, startSimulator } from '../local/sim';
import { VirtualClock } from '../local/virtualClock';
import type { ChaosArgs } from './chaosArgs';
import { metricLog, recordingCounters, sampleQueue, type MetricLog, type WatchedQueues } from './chaosAlarms';
import { callTally, type CallFigures } from './chaosCalls';
import { disableTtl } from './chaosTables';
import {
  CHAOS_SCHEDULE,
  chaosChain,
  chaosSender,
  hangAfterClaim,
  holdDynamoCalls,
  keyServiceSigner,
  throttleDynamoWrites,
  within,
  type AcceptedEmail,
  type FaultWindow,
} from './chaosFaults';
import { armScenario, protectionFigures, type ProtectionFigures } from './chaosProtection';
import { prng } from './prng';
import { simulatorChain } from './simulatorChain';

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;
/** Midnight of the simulated day (UTC). */
export const START = Date.parse('2025-01-15T00:00:00Z');
const END = START + DAY;
/** The report queue's visibility timeout as deployed (6 x the worker's timeout). */
export const VISIBILITY_MS = FUNCTION_SIZING['daily-report'].timeout.toMilliseconds() * VISIBILITY_FACTOR;
const CLEAR_SES_EVERY = 500;
/**
 * The scheduler's step: a minute (as deployed) from 07:00 to 10:00 around the reports and the
 * outage; five minutes otherwise, to keep the run short (every account here polls at 15 min, 1 h or 4 h,
 * on quarter hours, so the five-minute ticks land on its due times; both runs tick alike).
 */
function tickAfter(tick: number): number {
  const minute = (tick - START) / MINUTE;
  return minute >= 420 && minute < 600 ? MINUTE : 5 * MINUTE;
}
const REPORT_TIMES = ['07:45', '08:00', '08:00', '08:15'] as const;
/**
 * The accounts' mix: a tenth polled at 15m with the default delegate watch (5m), six tenths at 1h
 * watched every 15m, three tenths at 4h watched hourly (about 26 curve polls and 94 delegate
 * checks per account and day). The earlier mix, a third at 15m and the rest at 1h, all watched at
 * 5m, was 48 polls and 288 checks.
 */
export const INTERVAL_MIX = [
  { interval: '15m', delegateWatch: '5m', share: 0.1 },
  { interval: '1h', delegateWatch: '15m', share: 0.6 },
  { interval: '4h', delegateWatch: '1h', share: 0.3 },
] as const;
function mixOf(draw: number): (typeof INTERVAL_MIX)[number] {
  let below = 0;
  for (const mix of INTERVAL_MIX) if (draw < (below += mix.share)) return mix;
  return INTERVAL_MIX[1];
}
/** Accounts per desk: each desk address is also a recipient of its accounts, and gets one digest of them at 08:00 UTC. */
const DESK_SIZE = 10;
const deskOf = (i: number): string => `desk${Math.floor(i / DESK_SIZE)}@example.com`;

/** What one day left: the emails SES accepted, the points stored, the DLQs, the metrics it emitted. */
export interface RunResult {
  readonly accepted: readonly AcceptedEmail[];
  readonly points: ReadonlyMap<string, readonly number[]>;
  readonly deadLettered: { readonly collect: number; readonly notify: number; readonly report: number };
  readonly fromStoredData: number;
  readonly sesThrottled: number;
  readonly dynamoThrottled: number;
  readonly realSeconds: number;
  readonly dynamoCalls: number;
  /** DynamoDB calls per idle scheduler tick and per curve poll. */
  readonly calls: CallFigures;
  readonly metrics: MetricLog;
  /** The protection scenario: a dozen armed accounts crossing their kill-switch levels together (`PROTECTION_SCENARIO`). */
  readonly protection: ProtectionFigures;
  /** Dead-lettered decision units. */
  readonly decisionsDeadLettered: number;
  /** When the key service was down (ms from midnight; `null`: the fault-free day, or no signing came). */
  readonly keyServiceDown: FaultWindow | null;
}

function accounts(args: ChaosArgs) {
  const random = prng(args.seed);
  return Array.from({ length: args.accounts }, (_, i) => {
    const mix = mixOf(random());
    const address = getAddress(`0x${createHash('sha256').update(`chaos:${args.seed}:${i}`).digest('hex').slice(0, 40)}`);
    const settings = accountSettingsSchema.parse({
      address,
      email: [`owner${i}@example.com`, deskOf(i)],
      interval: mix.interval,
      delegateWatch: mix.delegateWatch,
      reportAt: REPORT_TIMES[Math.floor(random() * REPORT_TIMES.length)],
      timezone: 'UTC',
    });
    return newTrackedAccount(settings, START);
  });
}

/** Runs the day, fault-free or with the faults (`chaos`), on its own tables of the DynamoDB Local at `services.dynamo`. */
export async function runDay(args: ChaosArgs, chaos: boolean, services: { dynamo: string; ses: string }, watched: WatchedQueues): Promise<RunResult> {
  const began = performance.now();
  const prefix = `chaos${chaos ? 'f' : 'n'}-${Date.now() % 100_000}-`;
  const dynamo = createDynamoDbClient({ endpoint: services.dynamo });
  await createTables(dynamo, prefix);
  await disableTtl(dynamo, prefix);
  const clock = new VirtualClock(START);
  const random = prng(args.seed * 7 + 3);
  const at = (window: { fromMs: number; toMs: number }) => (now: number) => chaos && within(window, START, now);
  const dynamoThrottled = throttleDynamoWrites(dynamo, at(CHAOS_SCHEDULE.dynamoThrottle), clock, random);
  const byKind = process.env['CHAOS_CALLS'] ? new Map<string, number>() : undefined;
  const dynamoCalls = holdDynamoCalls(dynamo, clock, byKind);
  const tally = callTally(byKind);
  const repos = createRepositories(createDocumentClient(dynamo), prefix, { now: clock.now });
  const tracked = accounts(args);
  await repos.accounts.importMany(tracked);
  for (const desk of new Set(tracked.map((_, i) => deskOf(i)))) {
    const settings = recipientSettingsSchema.parse({ ...defaultRecipientSettings(desk), mode: 'digest', reportAt: '08:00', timezone: 'UTC' });
    await saveRecipient(
      repos.recipients,
      settings,
      tracked.filter((_, i) => deskOf(i) === desk),
      null,
      START,
    );
  }

  const sim = await startSimulator({ port: 0, seed: args.seed, clock: { startMs: START, speed: 0 }, unknownAccounts: 'generate', historyDays: 45 });
  const control = new SimControlClient(sim.controlUrl);
  let simNow = START;
  let chainDown = false;
  let syncing = Promise.resolve();
  // Serialized: the simulator's clock only moves forward, and the outage is switched on the simulated clock.
  const syncSimulator = (nowMs: number): Promise<void> =>
    (syncing = syncing.then(async () => {
      if (nowMs > simNow) {
        await control.setClock({ nowMs });
        simNow = nowMs;
      }
      const down = at(CHAOS_SCHEDULE.chainDown)(nowMs);
      if (down !== chainDown) {
        chainDown = down;
        await (down ? control.setFaults({ global: { error500: 1 } }) : control.resetFaults());
      }
    }));
  const http = simulatorChain(sim);
  const chain = chaosChain(http, clock, syncSimulator, at(CHAOS_SCHEDULE.chainSlow), random);
  // The protection scenario: armed accounts whose owner keys the signer holds, crossing together; the key service down in the chaos day.
  const signerEnv: Record<string, string> = {};
  const armed = await armScenario(control, repos, signerEnv, START);
  const ownerKeys = (ref: string) => resolveSigner(ref, { env: signerEnv });
  const keyService = keyServiceSigner(ownerKeys, { from: START + CHAOS_SCHEDULE.keyServiceDown.fromMs, forMs: CHAOS_SCHEDULE.keyServiceDown.forMs }, clock);

  const settings = loadSettings({
    DYNAMODB_ENDPOINT: services.dynamo,
    SES_ENDPOINT: services.ses,
    PUBLIC_BASE_URL: 'https://links.example.com',
    SENTINEL_LINK_SECRET: 'chaos-bench-link-secret-0123456789abcdef',
    SENTINEL_TABLE_PREFIX: prefix,
  });
  const ses = sesSenderFrom(settings);
  let sends = 0;
  const clearing = {
    send: async (email: Parameters<typeof ses.send>[0]) => {
      const result = await ses.send(email);
      if (++sends % CLEAR_SES_EVERY === 0) await fetch(`${services.ses}/clear-store`, { method: 'POST' });
      return result;
    },
  };
  const mail = chaosSender(clearing, clock, { throttled: at(CHAOS_SCHEDULE.sesThrottle), random });
  const counters = memoryCounters();
  const metrics = metricLog();
  const debug = process.env['CHAOS_DEBUG']
    ? (m: string, e?: Record<string, unknown>) => console.error(new Date(clock.now()).toISOString(), m, JSON.stringify(e))
    : () => undefined;
  const log = { ...silentLog, warn: debug, error: debug };
  const system = await createLocalSystem({
    settings,
    repos: chaos
      ? { ...repos, deliveries: hangAfterClaim(repos.deliveries, clock, { hangAt: START + CHAOS_SCHEDULE.hangAt, hangMs: VISIBILITY_MS + MINUTE }) }
      : repos,
    log,
    counters: recordingCounters(counters, metrics, clock.now),
    now: clock.now,
    chain,
    sender: mail.sender,
    clock,
    dispatchEveryMs: MINUTE,
    collectConcurrency: DEFAULT_COLLECT_CONCURRENCY,
    signerFor: chaos ? keyService.signerFor : ownerKeys,
    protectionFile: join(mkdtempSync(join(tmpdir(), 'chaos-protection-')), 'protection'),
  });
  await system.protection.write('on');

  let draining: Promise<unknown> | undefined;
  let notifying: Promise<unknown> | undefined;
  let deciding: Promise<unknown> | undefined;
  try {
    // The scheduler: collect and report dispatch once a simulated minute. While reports drain, the
    // clock moves as the workers wait, never past the next tick; when they are idle, it jumps to it.
    for (let tick = START; tick < END; tick += tickAfter(tick)) {
      if (clock.now() < tick) clock.set(tick);
      tally.begin(dynamoCalls());
      await clock.hold(() => syncSimulator(clock.now()));
      // Dispatch does not wait for paced emails (in AWS it runs on its own schedule): notify drains beside the ticks.
      const cycle = await system.pipeline.runCycle({ kind: 'due' }, undefined, 'collect-only');
      for (const o of cycle.outcomes)
        if (o.kind !== 'delegates-checked') debug(`collect ${o.kind}`, { account: o.address, ...('newPoints' in o ? { newPoints: o.newPoints } : {}) });
      await system.reports.dispatch();
      await system.reports.reconcile();
      const { visible, hidden } = system.reports.reportQueue.counts();
      const notifyCounts = system.pipeline.notifyQueue.counts();
      const decisionCounts = system.decisions.counts();
      const polls = cycle.outcomes.filter((o) => o.kind === 'collected' || o.kind === 'chain-failed').length;
      tally.end(dynamoCalls(), polls, visible + hidden + notifyCounts.visible + notifyCounts.hidden > 0 || draining !== undefined || notifying !== undefined);
      if (visible + hidden > 0) draining ??= system.reports.drain().finally(() => (draining = undefined));
      if (notifyCounts.visible + notifyCounts.hidden > 0) notifying ??= system.pipeline.notifyQueue.drain().finally(() => (notifying = undefined));
      // Decision units are signed beside the ticks (a unit to retry waits out its backoff, as the decision worker does in AWS).
      if (decisionCounts.visible + decisionCounts.hidden > 0) deciding ??= system.decisions.drain().finally(() => (deciding = undefined));
      const busy = [draining, notifying, deciding].filter((p) => p !== undefined);
      if (busy.length > 0) {
        // An active wait: the clock stops at the next tick even while a hung worker sleeps for longer.
        const nextTick = new AbortController();
        await Promise.race([clock.sleepUnless(tick + tickAfter(tick) - clock.now(), nextTick.signal), Promise.all(busy)]);
        nextTick.abort();
      }
      for (const [id, queue] of [
        ['Collect', system.pipeline.collectQueue],
        ['Notify', system.pipeline.notifyQueue],
        ['Report', system.reports.reportQueue],
        ['Decisions', system.decisions],
      ] as const) {
        const names = watched.get(id);
        if (names) sampleQueue(metrics, names, clock.now(), { oldestAgeMs: queue.oldestAgeMs(), deadLettered: queue.counts().deadLettered });
      }
      if ((tick - START) % (120 * MINUTE) === 0)
        process.stderr.write(
          `  ${chaos ? 'chaos' : 'fault-free'} ${new Date(tick).toISOString().slice(11, 16)} after ${((performance.now() - began) / 1000).toFixed(0)} s, ${dynamoCalls()} DynamoDB calls\n`,
        );
    }
    if (byKind) process.stderr.write(`  ${chaos ? 'chaos' : 'fault-free'} DynamoDB calls by command and table\n${tally.breakdown()}\n`);
    await draining;
    await deciding;
    await notifying;
    await system.decisions.drain();
    await system.pipeline.notifyQueue.drain();
    await system.reports.drain();
    await system.reports.reconcile();
    const points = new Map<string, number[]>();
    for (const account of tracked)
      points.set(
        account.address,
        (await repos.curves.queryRange(account.address, account.interval, START - 3 * DAY, END + DAY)).map((p) => p.ts),
      );
    return {
      accepted: mail.accepted,
      points,
      deadLettered: {
        collect: system.pipeline.collectQueue.counts().deadLettered,
        notify: system.pipeline.notifyQueue.counts().deadLettered,
        report: system.reports.reportQueue.counts().deadLettered,
      },
      fromStoredData: (counters.totals.get('ReportsFromStoredData') ?? 0) + (counters.totals.get('DigestsFromStoredData') ?? 0),
      sesThrottled: mail.throttledSends(),
      dynamoThrottled: dynamoThrottled(),
      realSeconds: (performance.now() - began) / 1000,
      dynamoCalls: dynamoCalls(),
      calls: tally.read(),
      metrics,
      protection: await protectionFigures(repos, control, armed, mail.accepted, START),
      decisionsDeadLettered: system.decisions.counts().deadLettered,
      keyServiceDown: ((w) => (w === null || !chaos ? null : { fromMs: w.fromMs - START, toMs: w.toMs - START }))(keyService.window()),
    };
  } finally {
    await system.pipeline.stop();
    await sim.close();
    await deleteTables(dynamo, prefix).catch(() => undefined);
    dynamo.destroy();
  }
}
