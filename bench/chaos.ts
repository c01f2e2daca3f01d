/**
 * Chaos run (`npm run bench:chaos [-- --accounts 500 --seed 1]`).
 *
 * One simulated day (2025-01-15, UTC) of the local pipeline `npm start` runs (`createLocalSystem`):
 * DynamoDB Local and local SES (started here on free ports), the chain simulator over HTTP (one per
 * run, same seed, generated history for every account), collect and report dispatch once a
 * simulated minute around report time (every five minutes otherwise, `tickAfter`), the in-process queues with the deployed report-worker concurrency and
 * redelivery, the deployed collect, notify and daily-report handlers. The clock is simulated
 * (`local/virtualClock.ts`): it moves when something waits (grace, backoff, queue delays, the mail
 * governor) and by a minute per scheduler tick, so DynamoDB Local and SES take no simulated time.
 *
 * The same day runs twice with the same seed: fault-free, then with the faults of
 * `CHAOS_SCHEDULE` (`bench/chaosFaults.ts`). The table compares the second with the first: curve
 * points stored, emails SES accepted per event id and recipient (reports and alerts), DLQ depth.
 */
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { getAddress } from 'viem';
import { createChainClient } from '../functions/chain/chainClient';
import { TokenBucket } from '../functions/shared/rateLimiter';
import { loadSettings } from '../functions/config/settings';
import { accountSettingsSchema } from '../functions/domain/account';
import { newTrackedAccount } from '../functions/domain/trackedAccount';
import { defaultRecipientSettings, recipientSettingsSchema } from '../functions/domain/recipientSettings';
import { saveRecipient } from '../functions/services/report/schedule/saveRecipient';
import { sesSenderFrom } from '../functions/runtime/factories';
import { memoryCounters, silentLog } from '../functions/shared/observability';
import { createTables, deleteTables } from '../functions/store/createTables';
import { createDocumentClient, createDynamoDbClient } from '../functions/store/documentClient';
import { createRepositories } from '../functions/store/repositories';
import { DEFAULT_COLLECT_CONCURRENCY } from '../infra/config/chainRateBudget';
import { FUNCTION_SIZING } from '../infra/config/functionSizing';
import { VISIBILITY_FACTOR } from '../infra/constructs/WorkQueue';
import { startDynamoDbLocal } from '../local/dynamodb';
import { createLocalSystem } from '../local/localSystem';
import { startSesLocal, type SesLocal } from '../local/ses';
import { SimControlClient, startSimulator } from '../local/sim';
import { VirtualClock } from '../local/virtualClock';
import { parseChaosArgs, type ChaosArgs } from './chaosArgs';
import { alarmSpans, evaluateAlarms, metricLog, recordingCounters, sampleQueue, stackAlarms, type AlarmRun, type MetricLog } from './chaosAlarms';
import { disableTtl } from './chaosTables';
import { CHAOS_SCHEDULE, chaosChain, chaosSender, holdDynamoCalls, throttleDynamoWrites, within, type AcceptedEmail } from './chaosFaults';
import { percentile, tallyPoints, tallySends, type AcceptedSend } from './chaosTally';
import { prng } from './prng';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const START = Date.parse('2025-01-15T00:00:00Z');
const END = START + DAY;
/** The report queue's visibility timeout as deployed (6 x the worker's timeout). */
const VISIBILITY_MS = FUNCTION_SIZING['daily-report'].timeout.toMilliseconds() * VISIBILITY_FACTOR;
const CLEAR_SES_EVERY = 500;
/**
 * The scheduler's step: a minute (as deployed) from 07:00 to 10:00 around the reports and the
 * outage; five minutes otherwise, to keep the run short (every account here polls at 15 min or 1 h,
 * on quarter hours, so the five-minute ticks land on its due times; both runs tick alike).
 */
function tickAfter(tick: number): number {
  const minute = (tick - START) / MINUTE;
  return minute >= 420 && minute < 600 ? MINUTE : 5 * MINUTE;
}
const REPORT_TIMES = ['07:45', '08:00', '08:00', '08:15'] as const;
/** Accounts per desk: each desk address is also a recipient of its accounts, and gets one digest of them at 08:00 UTC. */
const DESK_SIZE = 10;
const deskOf = (i: number): string => `desk${Math.floor(i / DESK_SIZE)}@example.com`;

interface RunResult {
  readonly accepted: readonly AcceptedEmail[];
  readonly points: ReadonlyMap<string, readonly number[]>;
  readonly deadLettered: { readonly collect: number; readonly notify: number; readonly report: number };
  readonly fromStoredData: number;
  readonly sesThrottled: number;
  readonly dynamoThrottled: number;
  readonly realSeconds: number;
  readonly dynamoCalls: number;
  readonly metrics: MetricLog;
}

/** The deployed work queues (names, by the monitoring stack's id) the run samples for the SQS alarms. */
type WatchedQueues = ReturnType<typeof stackAlarms>['queues'];

function accounts(args: ChaosArgs) {
  const random = prng(args.seed);
  return Array.from({ length: args.accounts }, (_, i) => {
    const address = getAddress(`0x${createHash('sha256').update(`chaos:${args.seed}:${i}`).digest('hex').slice(0, 40)}`);
    const settings = accountSettingsSchema.parse({
      address,
      email: [`owner${i}@example.com`, deskOf(i)],
      interval: random() < 1 / 3 ? '15m' : '1h',
      reportAt: REPORT_TIMES[Math.floor(random() * REPORT_TIMES.length)],
      timezone: 'UTC',
    });
    return newTrackedAccount(settings, START);
  });
}

async function run(args: ChaosArgs, chaos: boolean, services: { dynamo: string; ses: SesLocal }, watched: WatchedQueues): Promise<RunResult> {
  const began = performance.now();
  const prefix = `chaos${chaos ? 'f' : 'n'}-${Date.now() % 100_000}-`;
  const dynamo = createDynamoDbClient({ endpoint: services.dynamo });
  await createTables(dynamo, prefix);
  await disableTtl(dynamo, prefix);
  const clock = new VirtualClock(START);
  const random = prng(args.seed * 7 + 3);
  const at = (window: { fromMs: number; toMs: number }) => (now: number) => chaos && within(window, START, now);
  const dynamoThrottled = throttleDynamoWrites(dynamo, at(CHAOS_SCHEDULE.dynamoThrottle), clock, random);
  const dynamoCalls = holdDynamoCalls(dynamo, clock);
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
  const http = createChainClient({
    nodeUrl: sim.nodeUrl,
    indexerUrl: sim.indexerUrl,
    rps: 1_000,
    timeoutMs: 10_000,
    maxRetries: 2,
    retryBaseDelayMs: 5,
    rateLimiter: new TokenBucket({ ratePerSecond: 1_000 }),
  });
  const chain = chaosChain(http, clock, syncSimulator, at(CHAOS_SCHEDULE.chainSlow), random);

  const settings = loadSettings({
    DYNAMODB_ENDPOINT: services.dynamo,
    SES_ENDPOINT: services.ses.endpoint,
    PUBLIC_BASE_URL: 'https://links.example.com',
    SENTINEL_LINK_SECRET: 'chaos-bench-link-secret-0123456789abcdef',
    SENTINEL_TABLE_PREFIX: prefix,
  });
  const ses = sesSenderFrom(settings);
  let sends = 0;
  const clearing = {
    send: async (email: Parameters<typeof ses.send>[0]) => {
      const result = await ses.send(email);
      if (++sends % CLEAR_SES_EVERY === 0) await fetch(`${services.ses.endpoint}/clear-store`, { method: 'POST' });
      return result;
    },
  };
  const mail = chaosSender(clearing, clock, {
    throttled: at(CHAOS_SCHEDULE.sesThrottle),
    hangAt: chaos ? START + CHAOS_SCHEDULE.hangAt : null,
    hangMs: VISIBILITY_MS + MINUTE,
    random,
  });
  const counters = memoryCounters();
  const metrics = metricLog();
  const debug = process.env['CHAOS_DEBUG']
    ? (m: string, e?: Record<string, unknown>) => console.error(new Date(clock.now()).toISOString(), m, JSON.stringify(e))
    : () => undefined;
  const log = { ...silentLog, warn: debug, error: debug };
  const system = await createLocalSystem({
    settings,
    repos,
    log,
    counters: recordingCounters(counters, metrics, clock.now),
    now: clock.now,
    chain,
    sender: mail.sender,
    clock,
    dispatchEveryMs: MINUTE,
    collectConcurrency: DEFAULT_COLLECT_CONCURRENCY,
  });

  let draining: Promise<unknown> | undefined;
  try {
    // The scheduler: collect and report dispatch once a simulated minute. While reports drain, the
    // clock moves as the workers wait; when they are idle, it jumps to the next minute.
    for (let tick = START; tick < END; tick += tickAfter(tick)) {
      if (clock.now() < tick) clock.set(tick);
      await clock.hold(() => syncSimulator(clock.now()));
      const cycle = await system.pipeline.runCycle();
      for (const o of cycle.outcomes)
        if (o.kind !== 'delegates-checked') debug(`collect ${o.kind}`, { account: o.address, ...('newPoints' in o ? { newPoints: o.newPoints } : {}) });
      await system.reports.dispatch();
      await system.reports.reconcile();
      const { visible, hidden } = system.reports.reportQueue.counts();
      if (visible + hidden > 0) draining ??= system.reports.drain().finally(() => (draining = undefined));
      if (draining) await Promise.race([clock.until(tick + tickAfter(tick)), draining]);
      for (const [id, queue] of [
        ['Collect', system.pipeline.collectQueue],
        ['Notify', system.pipeline.notifyQueue],
        ['Report', system.reports.reportQueue],
      ] as const) {
        const names = watched.get(id);
        if (names) sampleQueue(metrics, names, clock.now(), { oldestAgeMs: queue.oldestAgeMs(), deadLettered: queue.counts().deadLettered });
      }
      if ((tick - START) % (120 * MINUTE) === 0)
        process.stderr.write(
          `  ${chaos ? 'chaos' : 'fault-free'} ${new Date(tick).toISOString().slice(11, 16)} after ${((performance.now() - began) / 1000).toFixed(0)} s, ${dynamoCalls()} DynamoDB calls\n`,
        );
    }
    await draining;
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
      metrics,
    };
  } finally {
    await system.pipeline.stop();
    await sim.close();
    await deleteTables(dynamo, prefix).catch(() => undefined);
    dynamo.destroy();
  }
}

type SendKind = 'report' | 'digest' | 'alert';
const kindOf = (eventId: string): SendKind => (/^digest/.test(eventId) ? 'digest' : /^(report|weekly|monthly)/.test(eventId) ? 'report' : 'alert');

function sendsOf(accepted: readonly AcceptedEmail[], kind: SendKind): AcceptedSend[] {
  return accepted.filter((a) => kindOf(a.eventId) === kind).map((a) => ({ key: `${a.eventId}#${[...a.destinations].sort().join(',')}`, at: a.at }));
}

const iso = (ms: number | undefined): string => (ms === undefined ? '-' : new Date(ms).toISOString().slice(5, 16));
const seconds = (ms: number): string => (Number.isFinite(ms) ? (ms / 1000).toFixed(0) : '-');
const hhmm = (ms: number): string => new Date(START + ms).toISOString().slice(11, 16);

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

function sendRows(base: RunResult, chaos: RunResult, kind: SendKind, plural: string): string[][] {
  const tally = tallySends(sendsOf(base.accepted, kind), sendsOf(chaos.accepted, kind));
  const self = tallySends(sendsOf(base.accepted, kind), sendsOf(base.accepted, kind));
  const late = `${seconds(percentile(tally.lateMs, 50))} / ${seconds(percentile(tally.lateMs, 99))} / ${seconds(tally.lateMs.at(-1) ?? Number.NaN)}`;
  return [
    [`${plural} (event id x recipient)`, `${self.expected} sent, ${self.duplicated} dup`, `${tally.expected - tally.missing + tally.extra} sent`],
    [`${plural} missing / duplicated / extra`, '-', `${tally.missing} / ${tally.duplicated} / ${tally.extra}`],
    [`${plural} late vs fault-free p50 / p99 / max (s)`, '-', late],
  ];
}

function report(base: RunResult, chaos: RunResult): string {
  const points = tallyPoints(base.points, chaos.points);
  const dlq = (r: RunResult) =>
    `${r.deadLettered.collect + r.deadLettered.notify + r.deadLettered.report} (collect ${r.deadLettered.collect}, notify ${r.deadLettered.notify}, report ${r.deadLettered.report})`;
  return table(
    ['measure', 'fault-free', 'chaos'],
    [
      ['curve points stored', String(points.expected), String(points.expected - points.lost)],
      ['curve points lost / duplicated', '-', `${points.lost} / ${points.duplicated}`],
      ...sendRows(base, chaos, 'report', 'reports'),
      ...sendRows(base, chaos, 'digest', 'digests'),
      ['reports and digests built from stored data', String(base.fromStoredData), String(chaos.fromStoredData)],
      ...sendRows(base, chaos, 'alert', 'alerts'),
      ['DLQ depth at the end', dlq(base), dlq(chaos)],
      ['SES sends throttled / DynamoDB writes throttled', `${base.sesThrottled} / ${base.dynamoThrottled}`, `${chaos.sesThrottled} / ${chaos.dynamoThrottled}`],
      ['real time / DynamoDB calls', `${base.realSeconds.toFixed(0)} s / ${base.dynamoCalls}`, `${chaos.realSeconds.toFixed(0)} s / ${chaos.dynamoCalls}`],
    ],
  );
}

/** The faults a span overlaps. */
function faultsDuring(span: { fromMs: number; toMs: number | null }): string {
  const s = CHAOS_SCHEDULE;
  const windows: [string, number, number][] = [
    ['chain down', s.chainDown.fromMs, s.chainDown.toMs],
    ['chain slow', s.chainSlow.fromMs, s.chainSlow.toMs],
    ['SES throttled', s.sesThrottle.fromMs, s.sesThrottle.toMs],
    ['DynamoDB throttled', s.dynamoThrottle.fromMs, s.dynamoThrottle.toMs],
    ['worker hung', s.hangAt, s.hangAt + VISIBILITY_MS + MINUTE],
  ];
  // An alarm trails its fault by its evaluation periods: a span is matched to faults that began before it ended, within the hour before it began.
  const to = span.toMs ?? DAY;
  const hits = windows.filter(([, from, until]) => from < to && until + 60 * MINUTE > span.fromMs).map(([name]) => name);
  return hits.length > 0 ? hits.join(', ') : 'none';
}

function alarmTable(base: readonly AlarmRun[], chaos: readonly AlarmRun[]): string {
  const spans = (r: AlarmRun | undefined) => (r ? alarmSpans(r) : []);
  const show = (r: AlarmRun | undefined) => {
    const list = spans(r);
    return list.length === 0 ? 'OK all day' : list.map((x) => `ALARM ${hhmm(x.fromMs)}-${x.toMs === null ? 'end (not cleared)' : hhmm(x.toMs)}`).join(', ');
  };
  const evaluated = chaos.filter((r) => r.states !== null);
  const fired = evaluated.filter((r) => spans(r).length > 0 || spans(base.find((b) => b.alarm === r.alarm)).length > 0);
  const rows = fired.map((r) => {
    const b = base.find((x) => x.alarm === r.alarm);
    return [r.alarm, show(b), show(r), spans(r).map(faultsDuring).join('; ') || '-'];
  });
  const quiet = evaluated.filter((r) => !fired.includes(r)).map((r) => r.alarm);
  const skipped = chaos.filter((r) => r.states === null).map((r) => r.alarm);
  return [
    table(['alarm', 'fault-free', 'chaos', 'during'], rows.length > 0 ? rows : [['(none fired)', '-', '-', '-']]),
    `evaluated and OK all day in both runs (${quiet.length}): ${quiet.join(', ')}`,
    `not evaluated, the local run emits none of their metric (${skipped.length}): ${skipped.join(', ')}`,
  ].join('\n');
}

async function main(): Promise<void> {
  const args = parseChaosArgs(process.argv.slice(2));
  const s = CHAOS_SCHEDULE;
  const { alarms, queues } = stackAlarms();
  console.log(
    `chaos run: ${args.accounts} accounts (1h and 15m, reports 07:45-08:15 UTC), seed ${args.seed}, one simulated day; load ${loadavg()[0]!.toFixed(1)}\n` +
      `faults: chain down ${hhmm(s.chainDown.fromMs)}-${hhmm(s.chainDown.toMs)}, SES 50% throttled ${hhmm(s.sesThrottle.fromMs)}-${hhmm(s.sesThrottle.toMs)}, ` +
      `one report worker hung ${(VISIBILITY_MS + MINUTE) / MINUTE} min from ${hhmm(s.hangAt)}, chain slow (p50 2 s) ${hhmm(s.chainSlow.fromMs)}-${hhmm(s.chainSlow.toMs)}, ` +
      `DynamoDB 20% of writes throttled ${hhmm(s.dynamoThrottle.fromMs)}-${hhmm(s.dynamoThrottle.toMs)}`,
  );
  // A loaded machine can take minutes to start the JVM.
  const dynamo = await startDynamoDbLocal({ inMemory: true, startTimeoutMs: 300_000 });
  const ses = await startSesLocal();
  try {
    const base = await run(args, false, { dynamo: dynamo.endpoint, ses }, queues);
    const chaos = await run(args, true, { dynamo: dynamo.endpoint, ses }, queues);
    console.log(report(base, chaos));
    console.log(alarmTable(evaluateAlarms(alarms, base.metrics, START, DAY), evaluateAlarms(alarms, chaos.metrics, START, DAY)));
    const prefixes = new Map<string, number>();
    for (const a of chaos.accepted) prefixes.set(a.eventId.split(':')[0] ?? '', (prefixes.get(a.eventId.split(':')[0] ?? '') ?? 0) + 1);
    const lost = [...base.points].flatMap(([address, stamps]) => stamps.filter((ts) => !(chaos.points.get(address) ?? []).includes(ts)));
    if (lost.length > 0)
      console.log(`curve points lost: ${lost.length}, stamped ${new Date(Math.min(...lost)).toISOString()} to ${new Date(Math.max(...lost)).toISOString()}`);
    for (const [address, stamps] of base.points) {
      const got = chaos.points.get(address) ?? [];
      if (got.length < stamps.length)
        console.log(
          `  ${address}: ${stamps.length} points fault-free, ${got.length} in the chaos run (fault-free ${iso(stamps[0])} to ${iso(stamps.at(-1))}, chaos ${iso(got[0])} to ${iso(got.at(-1))})`,
        );
    }
    console.log(`emails of the chaos run by kind: ${[...prefixes].map(([k, n]) => `${k} ${n}`).join(', ')}; load ${loadavg()[0]!.toFixed(1)} at the end`);
  } finally {
    await ses.stop();
    await dynamo.stop();
  }
}

await main();
