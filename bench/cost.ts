/**
 * Cost model (`npm run bench:cost [-- --accounts 100 --intervals 1m,15m,1h --latency 50 --reports 40 --history-days 90
 *   --collect-concurrency N --burst-seconds 1]`).
 *
 * Runs the collection pipeline locally (DynamoDB Local, the chain simulator, in-process queues;
 * the deployed dispatch and collect code) for each interval: `--accounts` accounts tracked at it,
 * each first given `--history-days` of curve history (`costHistory`, capped at what the drawdown
 * reads), an unmeasured first cycle, then a simulated window (10 minutes at 1m, two intervals
 * otherwise) a minute at a time, as the scheduler fires dispatch. Collect runs as deployed: up to
 * the stage's `collectConcurrency` instances, each with its own token bucket at its share. It measures what AWS would bill:
 * Lambda invocations and their durations (each collect batch and each dispatch run timed, GB-s
 * from `FUNCTION_SIZING`), DynamoDB read and write units (`ReturnConsumedCapacity` forced by a
 * client middleware) and the stored bytes (TTL'd series extrapolated to their lifetime), SQS
 * requests, the log bytes the functions write, the alert events queued. What does not grow with
 * the accounts (dispatch, the collect queue's messages and batches) is measured again by running
 * dispatch alone at 1,000 accounts (`costDeployment`) and counted once. The daily report's time
 * per email comes from a short run of `bench/report.ts`. Prices: `bench/prices-us-east-1.ts`.
 * Prints a table per interval of dollars per 1,000 accounts-month, with and without email, and
 * its log lines by message; the last line is the 1h figure without email.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { createChainClient } from '../functions/chain/chainClient';
import { INTERVAL_MS, type Interval } from '../functions/domain/interval';
import { lookbackWindowMs } from '../functions/domain/lookbackWindow';
import { DEFAULT_COLLECT_SETTINGS } from '../functions/services/collect/collectSettings';
import { loadStageConfig } from '../infra/config/stageConfig';
import { countedChain } from './collectChain';
import { benchClock, type BenchClock } from './collectScenario';
import { startBenchServices, type BenchServices } from './collectServices';
import { parseCostArgs, reportBenchArgs } from './costArgs';
import { runDeployment } from './costDeployment';
import { seedCurveHistory, type SeededHistory } from './costHistory';
import { meterCapacity } from './costMeter';
import { collectUnitsPerPoll, costTable, logRows, money, priceRun, total, type EmailMeasurement } from './costModel';
import { runInterval, windowFor, type IntervalRun } from './costScenario';
import { PRICES_US_EAST_1 } from './prices-us-east-1';

/**
 * 2030-01-07 00:00:30 UTC (a Monday, as bench:collect's start): after the machine's date, because
 * DynamoDB Local deletes items whose TTL has passed in wall-clock time, and snapshots live 35 days.
 */
const START_MS = Date.UTC(2030, 0, 7, 0, 0, 30);
/** The stage defaults' chain budget (`collectConcurrency` overridable with `--collect-concurrency`). */
function stageBudget(collectConcurrency: string | undefined) {
  return loadStageConfig((key) => (key === 'stage' ? 'devnet' : key === 'collectConcurrency' ? collectConcurrency : undefined)).rate;
}
/** The first polls backfill this much (as bench:collect); seeded history ends where it starts. */
const BACKFILL_MS = 2 * 3_600_000;
/** The number of accounts the figures are quoted for, and the deployment run's size. */
const DEPLOYMENT_ACCOUNTS = 1_000;
const DAY_MS = 86_400_000;
const STARTED = Date.now();
const log = (line: string) => console.error(`[bench:cost ${((Date.now() - STARTED) / 1000).toFixed(0)} s] ${line}`);

/** Mean time of one daily report, from `bench/report.ts` run on `reports` accounts, one at a time. */
function measureEmail(reports: number): EmailMeasurement {
  log(`daily reports: bench/report.ts on ${reports} accounts`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/report.ts', ...reportBenchArgs(reports)], { encoding: 'utf8' });
  const row = run.stdout.split('\n').find((l) => /^\|\s*1\s*\|/.test(l));
  const perSecond = Number(row?.split('|')[3]?.trim());
  if (run.status !== 0 || !(perSecond > 0)) throw new Error(`bench/report.ts failed: ${run.stderr.trim().split('\n').slice(-3).join(' ')}`);
  return { meanReportMs: 1000 / perSecond };
}

/** History seeded before an interval's first polls: `days`, but no more than the drawdown's window reads (5,000 points). */
function historyWindow(interval: Interval, days: number, clock: BenchClock): { fromMs: number; toMs: number } | null {
  const spanMs = Math.min(days * DAY_MS, lookbackWindowMs(interval, DEFAULT_COLLECT_SETTINGS.lookbackMs));
  if (spanMs <= 0) return null;
  const toMs = clock.now() - BACKFILL_MS - INTERVAL_MS[interval];
  return { fromMs: toMs - spanMs, toMs };
}

/** A chain client of its own for seeding (not counted, not on collect's token bucket). */
function seedingChain(services: BenchServices) {
  return createChainClient({ nodeUrl: services.sim.nodeUrl, indexerUrl: services.sim.indexerUrl, rps: 1_000, timeoutMs: 30_000, maxRetries: 3 });
}

async function main(): Promise<void> {
  const args = parseCostArgs(process.argv.slice(2));
  const email = measureEmail(args.reports);
  // The simulator generates every unknown account's history from a fixed first day: far enough back for the seeding.
  const services = await startBenchServices({ startMs: START_MS, latencyMs: args.latencyMs, historyDays: args.historyDays + 2 });
  const loadAtStart = os.loadavg()[0] ?? 0;
  try {
    const clock = benchClock(services, START_MS);
    const BUDGET = stageBudget(args.collectConcurrency);
    const urls = { nodeUrl: services.sim.nodeUrl, indexerUrl: services.sim.indexerUrl };
    // Each collect instance its own bucket at its share, burst `--burst-seconds` of it (deployed: one second's worth).
    const burst = Math.max(1, Math.ceil(BUDGET.collectRps * args.burstSeconds));
    const collectTier = { count: BUDGET.collectConcurrency, chain: (now: () => number) => countedChain(urls, BUDGET.collectRps, { burst, now }) };
    const seeder = seedingChain(services);
    const meter = meterCapacity(services.client);
    const results = [];
    for (const interval of args.intervals) {
      let seeded: (SeededHistory & { days: number }) | null = null;
      const window = historyWindow(interval, args.historyDays, clock);
      const run = await runInterval(
        {
          services,
          collectTier,
          meter,
          clock,
          progress: log,
          beforeFirstCycle: async (repos, addresses) => {
            if (!window) return;
            log(`${interval}: seeding ${((window.toMs - window.fromMs) / DAY_MS).toFixed(1)} days of curve history per account`);
            const history = await seedCurveHistory(
              {
                chain: seeder,
                curves: repos.curves,
                expiresAt: clock.now() + DEFAULT_COLLECT_SETTINGS.retentionMs,
                maxPointsPerRequest: DEFAULT_COLLECT_SETTINGS.maxPointsPerRequest,
              },
              addresses,
              interval,
              window,
            );
            seeded = { ...history, days: (window.toMs - window.fromMs) / DAY_MS };
            log(`${interval}: seeded ${history.points} points in ${(history.wallMs / 1000).toFixed(1)} s`);
          },
        },
        interval,
        args.accounts,
        windowFor(interval),
      );
      await clock.advance(3_600_000);
      const deployment = await runDeployment(
        { services, meter, clock, concurrency: BUDGET.collectConcurrency, progress: log },
        interval,
        DEPLOYMENT_ACCOUNTS,
        windowFor(interval),
      );
      results.push({ interval, run, deployment, seeded: seeded as (SeededHistory & { days: number }) | null, lines: priceRun(run, deployment, email) });
      await clock.advance(3_600_000);
    }

    console.log(`# bench:cost — ${new Date().toISOString()}`);
    console.log(
      `${args.accounts} simulated accounts per interval with ${args.historyDays} days of curve history (at most what the drawdown reads), ` +
        `dispatch and the collect queue run again at ${DEPLOYMENT_ACCOUNTS} accounts; chain latency ${args.latencyMs} ms, collect at up to ${BUDGET.collectConcurrency} instances × ${BUDGET.collectRps} requests/s ` +
        `(each its own bucket, burst ${burst}; stage defaults${args.collectConcurrency ? `, collectConcurrency ${args.collectConcurrency}` : ''}); prices ${PRICES_US_EAST_1.region} of ${PRICES_US_EAST_1.date}, Lambda on Arm, no free tier; a daily report took ${email.meanReportMs.toFixed(0)} ms ` +
        `(bench/report.ts, this machine); Node ${process.version}, load average ${loadAtStart.toFixed(1)} → ${(os.loadavg()[0] ?? 0).toFixed(1)}`,
    );
    for (const r of results) {
      const perPoll = collectUnitsPerPoll(r.run);
      console.log(
        `\n## ${r.interval}: $ per 1,000 accounts-month (measured: ${r.run.polls} polls in ${(r.run.windowMs / 60_000).toFixed(0)} simulated minutes)\n`,
      );
      const history = r.seeded
        ? `${r.seeded.days.toFixed(1)} days of curve history per account (${(r.seeded.points / args.accounts).toFixed(0)} points, seeded in ${(r.seeded.wallMs / 1000).toFixed(1)} s)`
        : 'no curve history (--history-days 0)';
      console.log(`With ${history}, collect read ${perPoll.readUnits.toFixed(2)} RRU and wrote ${perPoll.writeUnits.toFixed(2)} WRU per poll.\n`);
      console.log(costTable(r.lines));
      console.log(`\n${collectLine(r.run)}`);
      console.log(`\nLog lines a month at 1,000 accounts (largest first):\n\n| function, level, message | lines | MB | $ |\n|---|---|---|---|`);
      const price = PRICES_US_EAST_1.cloudwatch.perGbLogsIngested + PRICES_US_EAST_1.cloudwatch.perGbLogsStoredMonth;
      for (const row of logRows(r.run, r.deployment))
        console.log(`| ${row.key} | ${fmtCount(row.lines)} | ${(row.bytes / 1e6).toFixed(1)} | ${money((row.bytes / 1e9) * price)} |`);
    }
    console.log(
      `\n| interval | $ without email | $ with email | $ of it per deployment | polls a month | within the chain budget |\n|---|---|---|---|---|---|`,
    );
    for (const r of results) {
      const pollsPerHour = (r.run.polls / r.run.windowMs) * 3_600_000 * (DEPLOYMENT_ACCOUNTS / args.accounts);
      console.log(
        `| ${r.interval} | ${money(total(r.lines, 'without'))} | ${money(total(r.lines, 'withEmail'))} | ${money(total(r.lines, 'deployment'))} | ` +
          `${((pollsPerHour * 720) / 1e6).toFixed(2)} M | ${pollsPerHour <= BUDGET.pollsPerHour ? 'yes' : `no: ${Math.round(pollsPerHour)} polls/h > ${BUDGET.pollsPerHour}`} |`,
      );
    }
    const hourly = results.find((r) => r.interval === '1h');
    if (hourly) console.log(`\ncost: $${money(total(hourly.lines, 'without'))} per 1,000 accounts-month at 1h (without email)`);
  } finally {
    await services.stop();
  }
}

/** Collect's chain requests, billed time and CPU in the run (the simulator's CPU included: an upper bound). */
function collectLine(run: IntervalRun): string {
  const c = run.collect;
  const billedMs = run.usage.lambda.get('collect')?.billedMs ?? 0;
  return (
    `collect: ${c.chainRequests} chain requests, ${(billedMs / 1000).toFixed(1)} s billed (${(billedMs / Math.max(1, c.chainRequests)).toFixed(0)} ms per request), ` +
    `at most ${c.peakInstances} instances at once; CPU ${c.cpuMs.toFixed(0)} ms (${(c.cpuMs / Math.max(1, c.chainRequests)).toFixed(2)} ms per request, ` +
    `${((c.cpuMs / Math.max(1, billedMs)) * 100).toFixed(1)} % of a core over the billed time; an upper bound: the simulator runs in this process)`
  );
}

function fmtCount(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k` : n.toFixed(0);
}

await main();
