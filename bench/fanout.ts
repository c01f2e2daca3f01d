/**
 * Report fan-out benchmark (`npm run bench:fanout [-- --accounts 10000 --rate 14 --throttle 0,0.2]`).
 *
 * N accounts whose daily report is due in the same minute (08:00 UTC; a fifth of them in other
 * zones whose local report time is that minute: Berlin, Kolkata, Kathmandu, New York) go through
 * the local pipeline `npm start` runs (`createLocalSystem`): real DynamoDB Local and local SES
 * (started here on free ports), per-minute report dispatch, the in-process report queue with the
 * deployed worker concurrency and batch size, the deployed `daily-report` and `notify` handlers,
 * and the mail-rate governor at `--rate`. Report dispatch runs once a simulated minute, 30 s into it
 * (an EventBridge rate schedule has an arbitrary phase). A third of the way into the drain the mail
 * rate implies, a delegate alert is raised on the notify queue (for an account of its own). With `--throttle p`, SES answers `Throttling` (Maximum sending rate exceeded) to a
 * seeded fraction p of sends.
 *
 * The clock is simulated (`local/virtualClock.ts`): it moves only when something waits (the
 * governor's token buckets, backoff, queue delays), so DynamoDB Local, rendering and the local SES
 * take no simulated time. The numbers are what the design does at production scale, assuming the
 * workers render faster than the mail rate (4 instances of 1 vCPU do); how long this machine took
 * is printed separately.
 *
 * Prints, per run: lateness p50/p95/p99/max against each account's due minute; report emails per
 * simulated second against MAIL_RATE and the report share, and the most SES calls (sent or
 * throttled, alerts included) in any one-second window; duplicates and missed reports (from what
 * SES accepted, per recipient); the alert's latency; throttled sends retried.
 */
import { loadavg } from 'node:os';
import { KILL_SWITCH_OFF } from '../functions/domain/account';
import { performance } from 'node:perf_hooks';
import { loadSettings } from '../functions/config/settings';
import type { ChainClient } from '../functions/chain/ports';
import type { PortfolioResponse } from '../functions/chain/schemas';
import { SUMMARY_STRING_FIELDS } from '../functions/domain/summaryFields';
import { nextReportAt } from '../functions/domain/reportPlan';
import { EmailSendError } from '../functions/mail/errors';
import type { MailSender, RawEmail } from '../functions/mail/send/sesSender';
import { sesSenderFrom } from '../functions/runtime/factories';
import { mailRateShares } from '../functions/mail/send/mailRate';
import { REPORT_BATCH_SIZE, REPORT_WORKER_CONCURRENCY } from '../functions/services/report/schedule/reportWorkers';
import { memoryCounters, silentLog } from '../functions/shared/observability';
import type { TrackedAccount } from '../functions/domain/account';
import { createTables, deleteTables } from '../functions/store/createTables';
import { createDocumentClient, createDynamoDbClient } from '../functions/store/documentClient';
import { createRepositories } from '../functions/store/repositories';
import { FUNCTION_SIZING } from '../infra/config/functionSizing';
import { VISIBILITY_FACTOR } from '../infra/constructs/WorkQueue';
import { startDynamoDbLocal } from '../local/dynamodb';
import { createLocalSystem } from '../local/localSystem';
import { startSesLocal, type SesLocal } from '../local/ses';
import { VirtualClock } from '../local/virtualClock';
import { prng } from './prng';
import { mostInWindow, percentile } from './stats';

const DUE = Date.parse('2025-01-15T08:00:00Z');
const START = DUE - 60_000;
const DISPATCH_PHASE_MS = 30_000;
/** Zones whose local time at `DUE` is their report time (January: no DST anywhere here). */
const ZONES: readonly (readonly [string, string])[] = [
  ['Europe/Berlin', '09:00'],
  ['Asia/Kolkata', '13:30'],
  ['Asia/Kathmandu', '13:45'],
  ['America/New_York', '03:00'],
];
const CLEAR_EVERY = 500;
/** The report queue's visibility timeout as deployed (6 x the worker's timeout). */
const VISIBILITY_MS = FUNCTION_SIZING['daily-report'].timeout.toMilliseconds() * VISIBILITY_FACTOR;

function option(argv: readonly string[], name: string, fallback: string): string {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
}

interface Args {
  readonly accounts: number;
  readonly rate: number;
  readonly throttle: number[];
}

function parseArgs(argv: readonly string[]): Args {
  const accounts = Number(option(argv, '--accounts', '10000'));
  const rate = Number(option(argv, '--rate', '14'));
  const throttle = option(argv, '--throttle', '0,0.2').split(',').map(Number);
  if (!Number.isInteger(accounts) || accounts < 1) throw new Error('--accounts must be a positive integer');
  if (!(rate > 0)) throw new Error('--rate must be a positive number');
  if (throttle.some((p) => !(p >= 0 && p < 1))) throw new Error('--throttle must list fractions in [0, 1), e.g. 0,0.2');
  return { accounts, rate, throttle };
}

function account(i: number): TrackedAccount {
  const [timezone, reportAt] = i % 5 === 4 ? ZONES[Math.floor(i / 5) % ZONES.length]! : ['UTC', '08:00'];
  return {
    address: `0x${'fa000000'}${i.toString(16).padStart(32, '0')}`,
    emails: [`desk${i}@example.com`],
    label: null,
    interval: '1h',
    drawdownThresholds: [5, 10, 20],
    reportAt,
    timezone,
    expiryWarnDays: [14, 7, 3, 1],
    signer: null,
    delegateWatch: null,
    ...KILL_SWITCH_OFF,
    keepDelegates: [],
    revokeUnknown: 'off',
    createdAt: START,
    status: 'ok',
    statusReason: null,
    nextDueAt: START + 86_400_000,
    nextReportAt: nextReportAt(START, reportAt, timezone),
    consecutiveErrors: 0,
    consecutiveEmptyPolls: 0,
    polled: true,
    lastFailure: null,
  };
}

interface RunResult {
  readonly throttle: number;
  readonly lateness: number[];
  /** `ReportLatenessSeconds` as the worker emits it (after the delivery is recorded). */
  readonly workerLateness: number[];
  readonly reportSends: number[];
  readonly allCalls: number[];
  readonly duplicates: number;
  readonly missed: number;
  readonly alertLatencyMs: number | undefined;
  readonly throttled: number;
  readonly deadLettered: number;
  readonly realSeconds: number;
}

/** When the alert is raised: a third of the way into the drain (dispatch phase + N / report share). */
function alertAt(args: Args): number {
  return DUE + DISPATCH_PHASE_MS + Math.round(((args.accounts / mailRateShares(args.rate).report) * 1000) / 3);
}

async function run(args: Args, throttle: number, endpoints: { dynamo: string; ses: SesLocal }): Promise<RunResult> {
  const ALERT_AT = alertAt(args);
  const prefix = `fanout${Math.round(throttle * 100)}-${Date.now() % 100_000}-`;
  const dynamo = createDynamoDbClient({ endpoint: endpoints.dynamo });
  await createTables(dynamo, prefix);
  const clock = new VirtualClock(START);
  // The simulated clock is in the past: a long retention keeps DynamoDB Local's TTL sweeper off the delivery records.
  const repos = createRepositories(createDocumentClient(dynamo), prefix, { now: clock.now, retentionMs: 30 * 365 * 86_400_000 });
  const accounts = Array.from({ length: args.accounts }, (_, i) => account(i));
  // The alert's account: not due today, its own recipient.
  const owner: TrackedAccount = {
    ...account(args.accounts),
    emails: ['alert-owner@example.com'],
    reportAt: '20:00',
    timezone: 'UTC',
    nextReportAt: nextReportAt(START, '20:00', 'UTC'),
  };
  await repos.accounts.importMany([...accounts, owner]);

  const settings = loadSettings({
    DYNAMODB_ENDPOINT: endpoints.dynamo,
    SES_ENDPOINT: endpoints.ses.endpoint,
    PUBLIC_BASE_URL: 'https://links.example.com',
    SENTINEL_LINK_SECRET: 'fanout-bench-link-secret-0123456789abcdef',
    SENTINEL_TABLE_PREFIX: prefix,
    MAIL_RATE: String(args.rate),
  });
  const ses = sesSenderFrom(settings);
  const random = prng(7);
  const accepted = new Map<string, number>();
  const reportSends: number[] = [];
  const firstAccepted = new Map<string, number>();
  const allCalls: number[] = [];
  let sent = 0;
  const wrapped: MailSender = {
    send: async (email: RawEmail) => {
      // The moment of the SES call (the clock may move while the local SES answers).
      const at = clock.now();
      allCalls.push(at);
      if (random() < throttle) throw new EmailSendError('Throttling', true, 'Maximum sending rate exceeded.');
      const result = await ses.send(email);
      const to = email.destinations[0] ?? '';
      accepted.set(to, (accepted.get(to) ?? 0) + 1);
      if (to.startsWith('desk')) {
        reportSends.push(at);
        if (!firstAccepted.has(to)) firstAccepted.set(to, at);
      }
      if (++sent % CLEAR_EVERY === 0) await fetch(`${endpoints.ses.endpoint}/clear-store`, { method: 'POST' });
      return result;
    },
  };
  const counters = memoryCounters();
  // The report reads its three windows' summaries from the chain: a chain double answers at once
  // with no points and a zero summary (the benchmark measures dispatch, queueing and the mail
  // rate, not the chain); every other chain call fails loudly.
  const zeroSummary = Object.fromEntries([...SUMMARY_STRING_FIELDS.map((f) => [f, '0'] as const), ['totalTrades', 0] as const]) as PortfolioResponse['summary'];
  const unusedChain = new Proxy({} as ChainClient, {
    get: (_target, name) =>
      name === 'getPortfolio'
        ? () => Promise.resolve({ equity: [], pnl: [], summary: zeroSummary } satisfies PortfolioResponse)
        : () => Promise.reject(new Error('the fan-out benchmark makes no other chain calls')),
  });
  const debug = process.env['FANOUT_DEBUG']
    ? (m: string, e?: Record<string, unknown>) => console.error(clock.now() - DUE, m, JSON.stringify(e))
    : () => undefined;
  const log = { ...silentLog, warn: debug, error: debug };
  const system = await createLocalSystem({
    settings,
    repos,
    log,
    counters,
    now: clock.now,
    chain: unusedChain,
    sender: wrapped,
    clock,
    visibilityTimeoutMs: VISIBILITY_MS,
  });

  const began = performance.now();
  let next = DUE + DISPATCH_PHASE_MS;
  clock.set(next);
  let draining: Promise<unknown> | undefined;
  let alertLatencyMs: number | undefined;
  const alert = (async () => {
    await clock.until(ALERT_AT);
    const raisedAt = clock.now();
    const eventId = `delegate:${owner.address}:fanout-bench`;
    await system.pipeline.notifyQueue.send([
      {
        id: 'alert',
        body: {
          kind: 'new-delegate',
          eventId,
          account: owner.address,
          at: raisedAt,
          delegate: { address: `0x${'fb'.repeat(20)}`, expiryMs: null, name: 'unknown-bot', isWebClient: false },
          firstSeenAt: raisedAt,
        },
      },
    ]);
    await system.pipeline.notifyQueue.drain();
    const delivery = await repos.deliveries.get(`${eventId}#${owner.emails[0]}`);
    if (delivery?.sentAt !== undefined) alertLatencyMs = delivery.sentAt - raisedAt;
  })();
  // The scheduler: report dispatch once a simulated minute. While reports drain, the clock moves
  // only as the workers wait; when they are done, it jumps to the next minute.
  for (;;) {
    await system.reports.dispatch();
    next += 60_000;
    const { visible, hidden } = system.reports.reportQueue.counts();
    if (visible + hidden > 0) draining ??= system.reports.drain().finally(() => (draining = undefined));
    if (draining) await Promise.race([clock.until(next), draining]);
    if (!draining) {
      if (clock.now() >= ALERT_AT) {
        await alert;
        const left = system.reports.reportQueue.counts();
        if (left.visible + left.hidden === 0) break;
      }
      if (clock.now() < next) clock.set(next);
    }
  }
  const realSeconds = (performance.now() - began) / 1000;

  const reportAccepted = accounts.map((a) => accepted.get(a.emails[0]!) ?? 0);
  await deleteTables(dynamo, prefix);
  dynamo.destroy();
  return {
    throttle,
    // Every account here is due at DUE: lateness is from that minute to the SES call that delivered its report.
    lateness: [...firstAccepted.values()].map((at) => (at - DUE) / 1000).sort((a, b) => a - b),
    workerLateness: [...(counters.values.get('ReportLatenessSeconds') ?? [])].sort((a, b) => a - b),
    reportSends,
    allCalls,
    duplicates: reportAccepted.filter((n) => n > 1).length,
    missed: reportAccepted.filter((n) => n === 0).length,
    alertLatencyMs,
    throttled: counters.totals.get('MailThrottled') ?? 0,
    deadLettered: system.reports.reportQueue.counts().deadLettered,
    realSeconds,
  };
}

function row(args: Args, r: RunResult): string[] {
  const first = Math.min(...r.reportSends);
  const last = Math.max(...r.reportSends);
  const perSecond = r.reportSends.length > 1 ? (r.reportSends.length - 1) / ((last - first) / 1000) : Number.NaN;
  const fmt = (s: number) => (Number.isFinite(s) ? `${s.toFixed(1)}` : '-');
  return [
    `${Math.round(r.throttle * 100)}%`,
    fmt(percentile(r.lateness, 50)),
    fmt(percentile(r.lateness, 95)),
    fmt(percentile(r.lateness, 99)),
    fmt(r.lateness.at(-1) ?? Number.NaN),
    fmt(percentile(r.workerLateness, 99)),
    `${perSecond.toFixed(2)} (${((perSecond / args.rate) * 100).toFixed(1)}% of ${args.rate})`,
    String(mostInWindow(r.allCalls, 1_000)),
    String(r.duplicates),
    String(r.missed),
    r.alertLatencyMs === undefined ? 'not sent' : `${(r.alertLatencyMs / 1000).toFixed(2)} s`,
    String(r.throttled),
    String(r.deadLettered),
    `${r.realSeconds.toFixed(0)} s`,
  ];
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const shares = mailRateShares(args.rate);
  console.log(
    `fan-out: ${args.accounts} reports due at 08:00 UTC, MAIL_RATE ${args.rate}/s (reports ${shares.report.toFixed(2)}/s, alerts ${shares.alert.toFixed(2)}/s), ` +
      `${REPORT_WORKER_CONCURRENCY} workers x batch ${REPORT_BATCH_SIZE}, dispatch at :${DISPATCH_PHASE_MS / 1000} each minute, ` +
      `alert raised at ${new Date(alertAt(args)).toISOString().slice(11, 19)}; load ${loadavg()[0]!.toFixed(1)}`,
  );
  const dynamo = await startDynamoDbLocal({ inMemory: true });
  const ses = await startSesLocal();
  try {
    const rows: string[][] = [];
    for (const throttle of args.throttle) rows.push(row(args, await run(args, throttle, { dynamo: dynamo.endpoint, ses })));
    console.log(
      table(
        [
          'throttled',
          'late p50 s',
          'p95 s',
          'p99 s',
          'max s',
          'metric p99 s',
          'report emails/s',
          'max SES calls in 1 s',
          'duplicates',
          'missed',
          'alert latency',
          'throttled sends retried',
          'DLQ',
          'real time',
        ],
        rows,
      ),
    );
  } finally {
    await ses.stop();
    await dynamo.stop();
  }
}

await main();
