/**
 * Collection benchmark (`npm run bench:collect [-- --sizes 100,1000,5000 --rps 200]`).
 *
 * Starts DynamoDB Local (in memory) and the chain simulator (clock stopped, 50 ms latency on every
 * chain route), then for each number of accounts: fresh tables, the accounts tracked at `1h`, a
 * warm-up cycle (not measured), one hour later the measured due cycle through the local pipeline
 * (dispatch → collect queue drained by `--concurrency` consumers → collect handler), in which each
 * account has exactly one new point. Measured: wall time, chain requests (a counting `fetch`),
 * DynamoDB writes and capacity units (a middleware forcing `ReturnConsumedCapacity: TOTAL` on every
 * write). Then a naive collector on a sample of the same accounts, for the ratio. Prints Markdown
 * tables with PASS/FAIL per target; exits 1 when a target fails.
 */
import os from 'node:os';
import { parseCollectBenchArgs, USAGE, type CollectBenchArgs } from './collectArgs';
import { countedChain } from './collectChain';
import { renderBreakdown, renderReport, sizeRow, type SizeRow } from './collectReport';
import { benchClock, measureSize } from './collectScenario';
import { startBenchServices, type BenchServices } from './collectServices';
import { meterWrites } from './collectWriteMeter';

/** 2026-01-05 00:00:30 UTC: the simulator's clock, and the due time of every new account. */
const START_MS = Date.UTC(2026, 0, 5, 0, 0, 30);

/** Accounts of the discarded pass that warms up both runtimes before the first size. */
const RUNTIME_WARM_UP_ACCOUNTS = 300;

const log = (line: string) => console.error(`[bench:collect] ${line}`);

async function run(args: CollectBenchArgs, services: BenchServices): Promise<SizeRow[]> {
  const clock = benchClock(services, START_MS);
  const chain = countedChain({ nodeUrl: services.sim.nodeUrl, indexerUrl: services.sim.indexerUrl }, args.rps);
  const meter = meterWrites(services.client);
  const deps = { services, chain, meter, clock, concurrency: args.concurrency, naiveSample: args.naiveSample, progress: log };
  // Both just-started runtimes (this process and DynamoDB Local's JVM) compile their hot paths
  // during the first few hundred polls; a full pass whose figures are dropped keeps that out of
  // the first size's numbers.
  log(`runtime warm-up: a discarded pass over ${RUNTIME_WARM_UP_ACCOUNTS} accounts`);
  await measureSize({ ...deps, naiveSample: 1, progress: () => undefined }, RUNTIME_WARM_UP_ACCOUNTS, 'warmup');
  await clock.advance(3_600_000);
  const rows: SizeRow[] = [];
  for (const size of args.sizes) {
    const measured = await measureSize(deps, size);
    const row = sizeRow(measured, args.rps, chain.bucket.burst);
    log(
      `${size} accounts: ${row.accountsPerSecond.toFixed(1)} accounts/s, ${row.requestsPerSecond.toFixed(1)} requests/s, naive ${row.naiveAccountsPerSecond.toFixed(2)} accounts/s`,
    );
    rows.push(row);
    // Clock of the next size: an hour on, so its accounts start from a fresh due time.
    await clock.advance(3_600_000);
  }
  return rows;
}

async function main(): Promise<number> {
  let args: CollectBenchArgs;
  try {
    args = parseCollectBenchArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`bench:collect: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  log(`starting DynamoDB Local and the simulator (latency ${args.latencyMs} ms, CHAIN_RPS ${args.rps}, ${args.concurrency} collect consumers)`);
  const services = await startBenchServices({ startMs: START_MS, latencyMs: args.latencyMs });
  const interrupt = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping`);
    void services.stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  const started = Date.now();
  const loadAtStart = os.loadavg()[0] ?? 0;
  try {
    const rows = await run(args, services);
    const cpu = os.cpus();
    console.log(`# bench:collect — ${new Date().toISOString()}`);
    console.log(
      `machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown'}), Node ${process.version}, ` +
        `load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${(os.loadavg()[0] ?? 0).toFixed(1)} at the end`,
    );
    console.log(
      `setup: chain latency ${args.latencyMs} ms on every route, CHAIN_RPS ${args.rps}, ${args.concurrency} concurrent collect consumers ` +
        `(batches of 10), naive sample ${args.naiveSample} accounts per size; whole run ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
    );
    console.log(renderReport(rows, args.rps));
    console.log(`\n${renderBreakdown(rows)}`);
    const failed = rows.some((r) => !(r.pass.rate && r.pass.naive && r.pass.writes));
    const unitsOver = rows.some((r) => !r.pass.units);
    console.log(`\n${failed ? 'FAIL: at least one target missed' : 'PASS: every target met'} (targets: rate share, naive ratio, write requests per poll)`);
    if (unitsOver) console.log('NOTE: write capacity units per poll exceed the same budget; see the breakdown above');
    return failed ? 1 : 0;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await services.stop();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error('bench:collect failed:', error);
    process.exitCode = 1;
  },
);
