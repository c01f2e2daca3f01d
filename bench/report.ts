/**
 * Daily report benchmark (`npm run bench:report [-- --accounts 1000 --concurrency 1,4]`).
 *
 * For each account: build the report from stored data, render the chart PNG, render the email
 * (Handlebars + CSS inlining), assemble the MIME message and send it with `SendRawEmail` to a local
 * `aws-ses-v2-local` that the benchmark starts on a free port (and stops). This is the real
 * `sendAccountReport`, delivery records and links included.
 *
 * Data: 1,000 accounts generated in memory from a fixed seed, each with 30 days of hourly equity
 * and PnL points (721), a deposit or withdrawal on some days, two summary snapshots and up to
 * three delegates, in six time zones. The repositories are in-memory implementations of the same
 * ports (`bench/reportMemoryStore.ts`): DynamoDB Local's latency says nothing about DynamoDB's,
 * so it is left out and the numbers are the CPU and mail path. The local SES store is emptied
 * every 100 reports so that its memory does not pile up in this process (its raw-MIME proxy runs here).
 *
 * Prints, per concurrency: reports/second, p50/p95/max per report, RSS and heap at the start of
 * the run (the generated data and the warm process) and at their peak; then the median and p95
 * time of each stage over 100 reports run one after another.
 *
 * Then digests (`sendDigest`, the same data, delivery and SES path): one recipient with 50
 * accounts, and `--digest-recipients` recipients (default 1,000) with 5 accounts each, drawn from
 * the generated accounts in turn, at `--digest-concurrency` (default 4). Prints digests/s, the
 * HTML size p50/max of what was sent (and of the per-account reports above), and chain requests
 * per digest.
 */
import { availableParallelism, loadavg } from 'node:os';
import { KILL_SWITCH_OFF } from '../functions/domain/account';
import { performance } from 'node:perf_hooks';
import { SESClient } from '@aws-sdk/client-ses';
import { SUMMARY_PERCENT_FIELDS, SUMMARY_STRING_FIELDS } from '../functions/domain/summaryFields';
import { type PortfolioSummary } from '../functions/domain/portfolioSummary';
import { localDate } from '../functions/domain/localTime';
import { buildReportModel } from '../functions/domain/reportModel';
import { reportInstant, planFor } from '../functions/domain/reportPlan';
import { ActionLinks } from '../functions/links/actionLinks';
import { LinkTokenCodec } from '../functions/links/linkToken';
import { buildMime } from '../functions/mail/send/mime';
import { createEmailRenderer } from '../functions/mail/render/render';
import { SesSender } from '../functions/mail/send/sesSender';
import { mailChart } from '../functions/mail/chart/mailChart';
import { fromHeader } from '../functions/services/delivery/mailDelivery';
import { recipientLinks } from '../functions/services/delivery/recipientLinks';
import { readReportData } from '../functions/services/report/compose/reportData';
import { presentReport } from '../functions/notices/reportPresenter';
import { digestSenderFor } from '../functions/runtime/digestSenderFor';
import type { ReportDeps } from '../functions/services/report/send/reportDeps';
import { sendAccountReport } from '../functions/services/report/send/sendAccountReport';
import { sendDigest } from '../functions/services/report/send/sendDigest';
import type { DigestInput } from '../functions/services/report/send/digestInput';
import { REPORT_HTML_BUDGET_BYTES } from '../functions/notices/renderReport';
import type { EmailRenderer } from '../functions/mail/render/render';
import { memoryCounters, silentLog } from '../functions/shared/observability';
import type { TrackedAccount } from '../functions/domain/account';
import { mapConcurrent } from '../functions/shared/concurrency';
import { startSesLocal, type SesLocal } from '../local/ses';
import { Simulator } from '../local/sim';
import { memoryReportRepos, type StoredAccountData } from './reportMemoryStore';
import { prng } from './prng';
import { parseReportArgs } from './reportArgs';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.parse('2025-06-15T12:00:00Z');
/** The chain every report reads its windows from (generated history for any address). */
const chainSim = new Simulator({ seed: 5, clock: { startMs: NOW, speed: 0 }, historyDays: 45 });
const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'UTC', 'Australia/Sydney', 'America/Los_Angeles'];
const MAIL_FROM = 'sentinel@example.com';
const CLEAR_EVERY = 100;

function address(i: number, kind: number): `0x${string}` {
  return `0x${kind.toString(16).padStart(8, '0')}${i.toString(16).padStart(32, '0')}`;
}

function summaryOf(random: () => number, scale: number): PortfolioSummary {
  const entries = SUMMARY_STRING_FIELDS.map((field) => {
    const value = (random() * 2 - 0.3) * (SUMMARY_PERCENT_FIELDS.has(field) ? 20 : scale);
    return [field, SUMMARY_PERCENT_FIELDS.has(field) ? `${value.toFixed(2)}%` : value.toFixed(2)];
  });
  return { ...(Object.fromEntries(entries) as Record<(typeof SUMMARY_STRING_FIELDS)[number], string>), totalTrades: Math.floor(random() * 5_000) };
}

/** One account with 30 days of hourly data ending an hour before `NOW`, due for its report at `NOW`. */
function generateAccount(i: number): StoredAccountData {
  const random = prng(1_000 + i);
  const timezone = ZONES[i % ZONES.length]!;
  const reportAt = '04:00';
  const account: TrackedAccount = {
    address: address(i, 0xbe7c),
    emails: [`owner${i}@example.com`],
    label: i % 3 === 0 ? null : `desk-${i}`,
    interval: '1h',
    drawdownThresholds: [5, 10, 20],
    reportAt,
    timezone,
    expiryWarnDays: [14, 7, 3, 1],
    signer: i % 2 === 0 ? 'env:OWNER_KEY' : null,
    delegateWatch: '5m',
    ...KILL_SWITCH_OFF,
    keepDelegates: [],
    revokeUnknown: 'off',
    createdAt: NOW - 30 * DAY,
    status: 'ok',
    statusReason: null,
    nextDueAt: null,
    nextReportAt: reportInstant(localDate(NOW, timezone), reportAt, timezone),
    consecutiveErrors: 0,
    consecutiveEmptyPolls: 0,
    polled: true,
    lastFailure: null,
  };
  const startEquity = 10_000 + random() * 490_000;
  let pnl = 0;
  let flows = 0;
  const points = [];
  for (let t = NOW - 30 * DAY - HOUR; t <= NOW - HOUR; t += HOUR) {
    pnl += startEquity * (random() - 0.49) * 0.004;
    if (random() < 1 / 120) flows += (random() < 0.5 ? -1 : 1) * startEquity * random() * 0.3;
    points.push({ ts: t, equity: (startEquity + pnl + flows).toFixed(2), pnl: pnl.toFixed(2) });
  }
  const snapshot = (polledAt: number) => ({
    address: account.address,
    polledAt,
    summary: summaryOf(random, startEquity / 100),
    delta: null,
    previousPolledAt: null,
    expiresAt: NOW + 400 * DAY,
  });
  const delegates = Array.from({ length: i % 4 }, (_, d) => ({
    address: account.address,
    delegate: address(i * 4 + d, 0xde1e),
    name: d === 0 ? 'market-maker' : d === 1 ? 'Web session' : 'arb-bot',
    expiryMs: d === 2 ? null : NOW + (1 + d * 20) * DAY,
    isWebClient: d === 1,
    firstSeenAt: NOW - 20 * DAY,
    lastSeenAt: NOW - HOUR,
    warningsSent: [],
    expiredNoticeSent: false,
    removedAt: d === 2 && i % 8 === 3 ? NOW - 5 * HOUR : null,
    generation: 1,
  }));
  return { account, points, snapshots: [snapshot(NOW - 26 * HOUR), snapshot(NOW - HOUR / 2)], delegates };
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(0);

/** Samples RSS and heap every 20 ms; returns the peaks. */
function memorySampler(): { stop(): { rss: number; heap: number } } {
  const peak = { rss: 0, heap: 0 };
  const sample = (): void => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heap = Math.max(peak.heap, m.heapUsed);
  };
  sample();
  const timer = setInterval(sample, 20);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** Chain requests made, and the HTML size of every email sent (the largest render within the budget: what went out). */
const meter = { chainRequests: 0, htmlBytes: new Map<string, number>() };

/** A renderer that notes, per email (account or recipient), the size of the HTML that is sent. */
function meteredRenderer(inner: EmailRenderer): EmailRenderer {
  return {
    render(kind, view, options) {
      const out = inner.render(kind, view, options);
      const key = 'recipient' in view ? `digest:${view.recipient}` : 'account' in view ? `${kind}:${view.account.address}` : kind;
      const size = Buffer.byteLength(out.html, 'utf8');
      if (size <= REPORT_HTML_BUDGET_BYTES) meter.htmlBytes.set(key, Math.max(meter.htmlBytes.get(key) ?? 0, size));
      return out;
    },
  };
}

function depsFor(ses: SesLocal, data: readonly StoredAccountData[]): ReportDeps {
  const client = new SESClient({ endpoint: ses.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' } });
  const deps = {
    repos: memoryReportRepos(data),
    // The chain simulator in process: the report's three windows cost no network time here.
    chain: {
      getPortfolio: async (query) => {
        meter.chainRequests++;
        return chainSim.portfolio(query);
      },
    },
    sender: new SesSender(client),
    renderer: meteredRenderer(createEmailRenderer()),
    links: new ActionLinks(new LinkTokenCodec('bench-link-secret-0123456789abcdef0123'), 'https://sentinel.example.com'),
    mailFrom: MAIL_FROM,
    log: silentLog,
    counters: memoryCounters(),
    now: () => NOW,
  } satisfies Omit<ReportDeps, 'digest'>;
  return { ...deps, digest: digestSenderFor(deps) };
}

async function clearStore(ses: SesLocal): Promise<void> {
  const res = await fetch(`${ses.endpoint}/clear-store`, { method: 'POST' });
  if (!res.ok) throw new Error(`clearing the local SES store answered ${res.status}`);
}

async function run(ses: SesLocal, data: readonly StoredAccountData[], concurrency: number): Promise<string[]> {
  const deps = depsFor(ses, data);
  // Warm up (templates, fonts, JIT, the HTTP connection) on a forced report that is not measured.
  await sendAccountReport(deps, data[0]!.account, { kind: 'extra', regularIfDue: true }, NOW - DAY);
  await clearStore(ses);
  global.gc?.();
  const before = process.memoryUsage();
  const durations: number[] = [];
  let done = 0;
  const memory = memorySampler();
  const started = performance.now();
  await mapConcurrent(data, concurrency, async ({ account }) => {
    const t0 = performance.now();
    const outcome = await sendAccountReport(deps, account, { kind: 'scheduled' }, NOW);
    durations.push(performance.now() - t0);
    if (outcome.kind !== 'sent') throw new Error(`${account.address}: expected a sent report, got ${JSON.stringify(outcome)}`);
    if (++done % CLEAR_EVERY === 0) await clearStore(ses);
  });
  const seconds = (performance.now() - started) / 1000;
  const peak = memory.stop();
  await clearStore(ses);
  durations.sort((a, b) => a - b);
  return [
    String(concurrency),
    String(data.length),
    (data.length / seconds).toFixed(1),
    quantile(durations, 0.5).toFixed(1),
    quantile(durations, 0.95).toFixed(1),
    (durations.at(-1) ?? 0).toFixed(1),
    `${mb(before.rss)} → ${mb(peak.rss)}`,
    `${mb(before.heapUsed)} → ${mb(peak.heap)}`,
  ];
}

/** Median time of each step of one report, over `n` accounts, run one after another. */
async function stages(ses: SesLocal, data: readonly StoredAccountData[], n: number): Promise<string[][]> {
  const deps = depsFor(ses, data);
  const times: Record<string, number[]> = { 'load + model': [], 'chart PNG': [], 'render email': [], MIME: [], 'SES send': [] };
  const timed = async <T>(stage: string, fn: () => Promise<T> | T): Promise<T> => {
    const t0 = performance.now();
    const value = await fn();
    times[stage]!.push(performance.now() - t0);
    return value;
  };
  for (const { account } of data.slice(0, n)) {
    const plan = planFor(account, { kind: 'scheduled' }, NOW);
    if (plan.kind !== 'send') throw new Error('expected a due report');
    const { model } = await timed('load + model', async () => {
      const loaded = await readReportData(deps, undefined, account, plan.covers, NOW);
      return { model: buildReportModel(loaded.input) };
    });
    const chart = await timed('chart PNG', () => mailChart(model.chart.series, { cid: 'report-chart@sentinel', alt: 'chart', timeZone: account.timezone }));
    const links = recipientLinks(deps.links, account, account.emails[0]!, NOW, 'reports');
    const rendered = await timed('render email', () =>
      deps.renderer.render(
        'daily-report',
        presentReport(model, {
          id: 'daily-report:bench',
          preferencesUrl: links.preferencesUrl,
          chart: chart !== null,
          mail: {
            status: { state: 'ok', reason: null, lastPointAtMs: null },
            chart: chart?.ref ?? null,
            unsubscribeUrl: links.unsubscribeUrl,
            preferencesUrl: links.preferencesUrl,
            revokeUrl: links.revokeUrl,
          },
        }).email.view,
        {
          timeZone: account.timezone,
        },
      ),
    );
    const raw = await timed('MIME', () =>
      buildMime({
        from: fromHeader(MAIL_FROM),
        to: account.emails,
        ...rendered,
        unsubscribeUrl: links.unsubscribeUrl,
        eventId: plan.eventId,
        inlineImages: chart ? [chart.image] : [],
      }),
    );
    await timed('SES send', () => deps.sender.send({ raw, destinations: account.emails, source: MAIL_FROM }));
  }
  await clearStore(ses);
  return Object.entries(times).map(([stage, list]) => {
    const sorted = [...list].sort((a, b) => a - b);
    return [stage, quantile(sorted, 0.5).toFixed(2), quantile(sorted, 0.95).toFixed(2)];
  });
}

const kb = (bytes: number): string => (bytes / 1024).toFixed(1);

/** HTML sizes (KB) p50 / max of the emails whose key starts with `prefix`, then forgets them. */
function htmlSizes(prefix: string): string {
  const sizes = [...meter.htmlBytes]
    .filter(([key]) => key.startsWith(prefix))
    .map(([, size]) => size)
    .sort((a, b) => a - b);
  for (const key of [...meter.htmlBytes.keys()]) if (key.startsWith(prefix)) meter.htmlBytes.delete(key);
  return sizes.length === 0 ? '—' : `${kb(quantile(sizes, 0.5))} / ${kb(sizes.at(-1) ?? 0)}`;
}

/** `recipients` digests of `perRecipient` accounts each (drawn from `data` in turn), sent at `concurrency`. */
async function runDigests(ses: SesLocal, data: readonly StoredAccountData[], recipients: number, perRecipient: number, concurrency: number): Promise<string[]> {
  const deps = depsFor(ses, data);
  const inputs: DigestInput[] = Array.from({ length: recipients }, (_, r) => ({
    recipient: { email: `desk${r}-${perRecipient}@example.com`, mode: 'digest', timezone: 'Europe/Berlin', reportAt: '08:00', weekly: null, monthly: null },
    accounts: Array.from({ length: perRecipient }, (_, k) => data[(r * perRecipient + k) % data.length]!.account),
    period: 'day',
    reportDate: localDate(NOW, 'Europe/Berlin'),
    timeZone: 'Europe/Berlin',
    now: NOW,
    forced: false,
  }));
  meter.chainRequests = 0;
  const durations: number[] = [];
  let done = 0;
  const started = performance.now();
  await mapConcurrent(inputs, concurrency, async (input) => {
    const t0 = performance.now();
    const outcome = await sendDigest(deps, input);
    durations.push(performance.now() - t0);
    if (outcome.kind !== 'sent') throw new Error(`${input.recipient.email}: expected a sent digest, got ${JSON.stringify(outcome)}`);
    if (++done % CLEAR_EVERY === 0) await clearStore(ses);
  });
  const seconds = (performance.now() - started) / 1000;
  await clearStore(ses);
  durations.sort((a, b) => a - b);
  return [
    `${recipients} × ${perRecipient} accounts`,
    String(concurrency),
    (recipients / seconds).toFixed(2),
    ((recipients * perRecipient) / seconds).toFixed(1),
    quantile(durations, 0.5).toFixed(0),
    (durations.at(-1) ?? 0).toFixed(0),
    htmlSizes('digest:'),
    (meter.chainRequests / recipients).toFixed(1),
  ];
}

async function main(): Promise<void> {
  const { accounts, concurrency, digests: withDigests, digestRecipients, digestConcurrency } = parseReportArgs(process.argv.slice(2));
  const data = Array.from({ length: accounts }, (_, i) => generateAccount(i));
  const points = data.reduce((sum, d) => sum + d.points.length, 0);
  const ses = await startSesLocal();
  const stop = async (): Promise<void> => ses.stop();
  process.once('SIGINT', () => void stop().finally(() => process.exit(130)));
  try {
    console.log(`daily report benchmark: ${accounts} accounts, ${points} curve points (${(points / accounts).toFixed(0)} per account)`);
    console.log(`Node ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg()[0]?.toFixed(1)} at start`);
    const rows: string[][] = [];
    meter.chainRequests = 0;
    for (const c of concurrency) rows.push(await run(ses, data, c));
    const reportRequests = meter.chainRequests / (concurrency.length * (accounts + 1));
    const reportHtml = htmlSizes('daily-report:');
    console.log(`load average ${loadavg()[0]?.toFixed(1)} at the end`);
    console.log();
    console.log(table(['concurrency', 'reports', 'reports/s', 'p50 ms', 'p95 ms', 'max ms', 'RSS MB (start → peak)', 'heap MB (start → peak)'], rows));
    console.log();
    console.log(table(['stage (one report)', 'p50 ms', 'p95 ms'], await stages(ses, data, Math.min(100, accounts))));
    console.log();
    console.log(`per-account report: HTML ${reportHtml} KB (p50 / max), ${reportRequests.toFixed(1)} chain requests per report`);
    if (!withDigests) return;
    const digests: string[][] = [await runDigests(ses, data, 1, 50, 1)];
    if (digestRecipients > 0) digests.push(await runDigests(ses, data, digestRecipients, 5, digestConcurrency));
    console.log(`load average ${loadavg()[0]?.toFixed(1)} after the digests`);
    console.log();
    console.log(table(['digests', 'concurrency', 'digests/s', 'accounts/s', 'p50 ms', 'max ms', 'HTML KB p50 / max', 'chain requests per digest'], digests));
  } finally {
    await stop();
  }
}

await main();
