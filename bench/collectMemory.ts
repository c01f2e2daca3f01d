/**
 * Collect's memory and CPU as deployed (`npx tsx bench/collectMemory.ts [--watch 100] [--raw]`): builds the
 * `collect` asset exactly as the CDK construct does, and runs it in a fresh `node` process against
 * DynamoDB Local and the chain simulator (no latency): a first poll of a 1m account backfilling the
 * default 7 days (10,080 points, the heaviest job collect runs), then a delegate-watch batch of
 * `--watch` accounts, then ten steady-state polls of 1h accounts. Prints, after each step, the
 * process's peak resident memory (what Lambda reports as "Max Memory Used") and the CPU time the
 * step took, so the function's memory size can be checked against both: at 128 MB a Lambda has about
 * 128/1769 of a vCPU, so a step's CPU time stretches ~14x there. `--raw` also prints the child's JSON.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getAddress } from 'viem';
import { buildHandlerAsset } from '../infra/bundling/buildHandlerAsset';
import { accountSettingsSchema } from '../functions/domain/account';
import type { Interval } from '../functions/domain/interval';
import { newTrackedAccount } from '../functions/domain/trackedAccount';
import { createTables } from '../functions/store/createTables';
import { createDocumentClient } from '../functions/store/documentClient';
import { createRepositories } from '../functions/store/repositories';
import { startBenchServices } from './collectServices';

const START_MS = Date.UTC(2030, 0, 7, 0, 0, 30);
const PREFIX = 'mem-';
const LAMBDA_FULL_VCPU_MB = 1769;

function option(argv: readonly string[], name: string, fallback: string): string {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? (argv[i + 1] ?? fallback) : fallback;
}

function address(label: string): string {
  return getAddress(`0x${createHash('sha256').update(`mem:${label}`).digest('hex').slice(0, 40)}`);
}

/** The child: imports the bundle, runs each step's SQS event, prints one JSON line per step. */
const CHILD = `
const steps = JSON.parse(process.env.BENCH_STEPS);
const started = process.cpuUsage();
const mod = await import(process.env.BENCH_BUNDLE);
const out = [];
const mark = (name, cpuBefore, extra) => {
  const cpu = process.cpuUsage(cpuBefore);
  out.push({ name, cpuMs: (cpu.user + cpu.system) / 1000, maxRssMb: process.resourceUsage().maxRSS / 1024, heapMb: process.memoryUsage().heapUsed / 1048576, ...extra });
};
mark('import (cold start)', started);
const context = { getRemainingTimeInMillis: () => 120000, awsRequestId: 'bench', functionName: 'collect', invokedFunctionArn: 'arn:aws:lambda:us-east-1:111122223333:function:collect' };
for (const step of steps) {
  const before = process.cpuUsage();
  const records = step.bodies.map((body, i) => ({ messageId: step.name + i, receiptHandle: 'r', body: JSON.stringify(body), attributes: { ApproximateReceiveCount: '1' }, messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:us-east-1:111122223333:collect', awsRegion: 'us-east-1' }));
  const response = await mod.handler({ Records: records }, context);
  mark(step.name, before, { failures: response?.batchItemFailures?.length ?? 0 });
}
console.log(JSON.stringify(out));
`;

async function main(): Promise<void> {
  const watchSize = Number(option(process.argv.slice(2), 'watch', '100'));
  const services = await startBenchServices({ startMs: START_MS, latencyMs: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'collect-mem-'));
  try {
    const asset = await buildHandlerAsset('collect', 'x64', join(dir, 'asset'));
    await createTables(services.client, PREFIX);
    const repos = createRepositories(createDocumentClient(services.client), PREFIX, { now: () => START_MS });
    const track = (label: string, interval: Interval) =>
      newTrackedAccount(accountSettingsSchema.parse({ address: address(label), email: `${label}@example.com`, interval }), START_MS - 7 * 86_400_000);
    const backfill = track('backfill', '1m');
    const watched = Array.from({ length: watchSize }, (_, i) => track(`watch-${i}`, '1h'));
    const polled = Array.from({ length: 10 }, (_, i) => track(`poll-${i}`, '1h'));
    await repos.accounts.importMany([backfill, ...watched, ...polled]);
    const steps = [
      { name: 'first poll, 1m, 7-day backfill', bodies: [{ address: backfill.address, dueAt: START_MS }] },
      {
        name: `delegate watch of ${watchSize} accounts`,
        bodies: [{ kind: 'delegate-watch', dueAt: START_MS, accounts: watched.map((a) => ({ address: a.address, mark: null })) }],
      },
      { name: '10 polls, 1h (first: 7 days)', bodies: polled.map((a) => ({ address: a.address, dueAt: START_MS })) },
    ];
    const childFile = join(dir, 'child.mjs');
    writeFileSync(childFile, CHILD);
    const run = spawnSync(process.execPath, [childFile], {
      encoding: 'utf8',
      env: {
        PATH: process.env['PATH'] ?? '',
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'bench',
        AWS_SECRET_ACCESS_KEY: 'bench',
        DYNAMODB_ENDPOINT: services.dynamo.endpoint,
        SENTINEL_TABLE_PREFIX: PREFIX,
        ROCKET_NODE_URL: services.sim.nodeUrl,
        ROCKET_INDEXER_URL: services.sim.indexerUrl,
        CHAIN_RPS: '1000',
        NOTIFY_QUEUE_URL: 'http://127.0.0.1:9/notify',
        POWERTOOLS_METRICS_DISABLED: 'true',
        POWERTOOLS_LOG_LEVEL: 'ERROR',
        BENCH_BUNDLE: pathToFileURL(asset.file).href,
        BENCH_STEPS: JSON.stringify(steps),
      },
    });
    const line = run.stdout.trim().split('\n').at(-1) ?? '';
    if (run.status !== 0 || !line.startsWith('[')) throw new Error(`collect child failed: ${run.stderr.trim().split('\n').slice(-5).join(' ')}`);
    if (process.argv.includes('--raw')) console.error(line);
    const rows = JSON.parse(line) as { name: string; cpuMs: number; maxRssMb: number; heapMb: number; failures?: number }[];
    console.log(`# collect memory and CPU — ${new Date().toISOString()}`);
    console.log(
      `Node ${process.version}, ${os.cpus().length} cores, load average ${(os.loadavg()[0] ?? 0).toFixed(1)}; CPU ms at 128 MB ≈ CPU ms × ${(LAMBDA_FULL_VCPU_MB / 128).toFixed(1)}\n`,
    );
    console.log('| step | CPU ms | at 128 MB (×13.8) | peak RSS MB | heap MB | records failed |\n|---|---|---|---|---|---|');
    for (const r of rows) {
      console.log(
        `| ${r.name} | ${r.cpuMs.toFixed(0)} | ${((r.cpuMs * LAMBDA_FULL_VCPU_MB) / 128).toFixed(0)} | ${r.maxRssMb.toFixed(1)} | ${r.heapMb.toFixed(1)} | ${r.failures ?? ''} |`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await services.stop();
  }
}

await main();
