/**
 * Cost model (`npm run bench:cost [-- --accounts 100 --intervals 1m,15m,1h --latency 50]`).
 *
 * Runs the collection pipeline locally (DynamoDB Local, the chain simulator, in-process queues;
 * the deployed dispatch and collect code) for each interval: `--accounts` accounts tracked at it,
 * a simulated window (10 minutes at 1m, two intervals otherwise) a minute at a time, as the
 * scheduler fires dispatch. It measures what AWS would bill: Lambda invocations and their
 * durations (each collect batch and each dispatch run timed, GB-s from `FUNCTION_SIZING`),
 * DynamoDB read and write units (`ReturnConsumedCapacity` forced by a client middleware) and the
 * stored bytes (TTL'd series extrapolated to their lifetime), SQS requests, the log bytes the
 * functions write, the alert events queued. The daily report's time per email comes from a short
 * run of `bench/report.ts`. Prices: `bench/prices-us-east-1.ts`. Prints a table per interval of
 * dollars per 1,000 accounts-month, with and without email; the last line is the 1h figure
 * without email.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { INTERVALS, type Interval } from '../functions/domain/interval';
import { loadStageConfig } from '../infra/config/stageConfig';
import { countedChain } from './collectChain';
import { benchClock } from './collectScenario';
import { startBenchServices } from './collectServices';
import { meterCapacity } from './costMeter';
import { costTable, money, priceRun, total, withWriteUnitsPerPoll, type EmailMeasurement } from './costModel';
import { runInterval, windowFor, type IntervalRun } from './costScenario';
import { PRICES_US_EAST_1 } from './prices-us-east-1';

/** Write units per poll the collect branch's change aims at (from 6), for the what-if line. */
const TARGET_WRITE_UNITS_PER_POLL = 3.1;
/**
 * 2030-01-07 00:00:30 UTC (a Monday, as bench:collect's start): after the machine's date, because
 * DynamoDB Local deletes items whose TTL has passed in wall-clock time, and snapshots live 35 days.
 */
const START_MS = Date.UTC(2030, 0, 7, 0, 0, 30);
/** The stage defaults' chain budget (`collectConcurrency` overridable with `--collect-concurrency`). */
function stageBudget(collectConcurrency: string | undefined) {
  return loadStageConfig((key) => (key === 'stage' ? 'devnet' : key === 'collectConcurrency' ? collectConcurrency : undefined)).rate;
}
const log = (line: string) => console.error(`[bench:cost] ${line}`);

function option(argv: readonly string[], name: string, fallback: string): string {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? (argv[i + 1] ?? fallback) : fallback;
}

function parseArgs(argv: readonly string[]): { accounts: number; intervals: Interval[]; latencyMs: number; reports: number; collectConcurrency: string | undefined; burstSeconds: number } {
  const accounts = Number(option(argv, 'accounts', '100'));
  const latencyMs = Number(option(argv, 'latency', '50'));
  const reports = Number(option(argv, 'reports', '40'));
  const intervals = option(argv, 'intervals', '1m,15m,1h').split(',') as Interval[];
  if (!Number.isInteger(accounts) || accounts < 10) throw new Error('--accounts must be an integer >= 10');
  if (!(latencyMs >= 0)) throw new Error('--latency must be >= 0');
  if (!Number.isInteger(reports) || reports < 5) throw new Error('--reports must be an integer >= 5');
  for (const i of intervals) if (!INTERVALS.includes(i)) throw new Error(`unknown interval ${i}`);
  const burstSeconds = Number(option(argv, 'burst-seconds', '1'));
  if (!(burstSeconds > 0)) throw new Error('--burst-seconds must be > 0');
  const collectConcurrency = argv.includes('--collect-concurrency') ? option(argv, 'collect-concurrency', '') : undefined;
  return { accounts, intervals, latencyMs, reports, collectConcurrency, burstSeconds };
}

/** Mean time of one daily report, from `bench/report.ts` run on `reports` accounts, one at a time. */
function measureEmail(reports: number): EmailMeasurement {
  log(`daily reports: bench/report.ts on ${reports} accounts`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/report.ts', '--accounts', String(reports), '--concurrency', '1', '--digests', 'off'], { encoding: 'utf8' });
  const row = run.stdout.split('\n').find((l) => /^\|\s*1\s*\|/.test(l));
  const perSecond = Number(row?.split('|')[3]?.trim());
  if (run.status !== 0 || !(perSecond > 0)) throw new Error(`bench/report.ts failed: ${run.stderr.trim().split('\n').slice(-3).join(' ')}`);
  return { meanReportMs: 1000 / perSecond };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const email = measureEmail(args.reports);
  const services = await startBenchServices({ startMs: START_MS, latencyMs: args.latencyMs });
  const loadAtStart = os.loadavg()[0] ?? 0;
  try {
    const clock = benchClock(services, START_MS);
    const BUDGET = stageBudget(args.collectConcurrency);
    const urls = { nodeUrl: services.sim.nodeUrl, indexerUrl: services.sim.indexerUrl };
    // Each collect instance its own bucket at its share, burst `--burst-seconds` of it (deployed: one second's worth).
    const burst = Math.max(1, Math.ceil(BUDGET.collectRps * args.burstSeconds));
    const collectTier = { count: BUDGET.collectConcurrency, chain: (now: () => number) => countedChain(urls, BUDGET.collectRps, { burst, now }) };
    const meter = meterCapacity(services.client);
    const results: { interval: Interval; lines: ReturnType<typeof priceRun>; whatIf: ReturnType<typeof priceRun>; polls: number; windowMs: number; collect: IntervalRun['collect']; collectMs: number }[] = [];
    for (const interval of args.intervals) {
      const run = await runInterval({ services, collectTier, meter, clock, progress: log }, interval, args.accounts, windowFor(interval));
      const collectMs = run.usage.lambda.get('collect')?.billedMs ?? 0;
      results.push({ interval, lines: priceRun(run, email), whatIf: priceRun(withWriteUnitsPerPoll(run, TARGET_WRITE_UNITS_PER_POLL), email), polls: run.polls, windowMs: run.windowMs, collect: run.collect, collectMs });
      await clock.advance(3_600_000);
    }

    console.log(`# bench:cost — ${new Date().toISOString()}`);
    console.log(
      `${args.accounts} simulated accounts per interval, chain latency ${args.latencyMs} ms, collect at up to ${BUDGET.collectConcurrency} instances × ${BUDGET.collectRps} requests/s ` +
        `(each its own bucket, burst ${burst}; stage defaults${args.collectConcurrency ? `, collectConcurrency ${args.collectConcurrency}` : ''}); prices ${PRICES_US_EAST_1.region} of ${PRICES_US_EAST_1.date}, Lambda on Arm, no free tier; a daily report took ${email.meanReportMs.toFixed(0)} ms ` +
        `(bench/report.ts, this machine); Node ${process.version}, load average ${loadAtStart.toFixed(1)} → ${(os.loadavg()[0] ?? 0).toFixed(1)}`,
    );
    for (const r of results) {
      console.log(`\n## ${r.interval}: $ per 1,000 accounts-month (measured: ${r.polls} polls in ${(r.windowMs / 60_000).toFixed(0)} simulated minutes)\n`);
      console.log(costTable(r.lines));
      const c = r.collect;
      console.log(
        `\ncollect: ${c.chainRequests} chain requests, ${(r.collectMs / 1000).toFixed(1)} s billed (${(r.collectMs / Math.max(1, c.chainRequests)).toFixed(0)} ms per request), ` +
          `at most ${c.peakInstances} instances at once; CPU ${c.cpuMs.toFixed(0)} ms (${(c.cpuMs / Math.max(1, c.chainRequests)).toFixed(2)} ms per request, ` +
          `${((c.cpuMs / Math.max(1, r.collectMs)) * 100).toFixed(1)} % of a core over the billed time; an upper bound: the simulator runs in this process)`,
      );
    }
    console.log(`\n| interval | $ without email | $ with email | $ without email at ${TARGET_WRITE_UNITS_PER_POLL} WRU/poll | polls a month | within the chain budget |\n|---|---|---|---|---|---|`);
    for (const r of results) {
      const pollsPerHour = (r.polls / r.windowMs) * 3_600_000 * (1000 / args.accounts);
      console.log(
        `| ${r.interval} | ${money(total(r.lines, 'without'))} | ${money(total(r.lines, 'withEmail'))} | ${money(total(r.whatIf, 'without'))} | ` +
          `${(pollsPerHour * 720 / 1e6).toFixed(2)} M | ${pollsPerHour <= BUDGET.pollsPerHour ? 'yes' : `no: ${Math.round(pollsPerHour)} polls/h > ${BUDGET.pollsPerHour}`} |`,
      );
    }
    const hourly = results.find((r) => r.interval === '1h');
    if (hourly) console.log(`\ncost: $${money(total(hourly.lines, 'without'))} per 1,000 accounts-month at 1h (without email)`);
  } finally {
    await services.stop();
  }
}

await main();
