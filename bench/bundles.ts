/**
 * Bundle benchmark (`npm run bench:bundles [-- --runs 9]`): builds every handler's asset exactly as the
 * CDK construct does (`infra/bundling/buildHandlerAsset.ts`), then reports per function
 * - the minified bundle size (index.mjs, without its source map), target < 500 KB;
 * - the cold start of a fresh `node` process that imports the bundle and checks `handler`, median of
 *   several runs, relative to an empty handler bundled the same way in the same run, target < 3x;
 *   and, inside that, the time the `import()` itself took.
 * Runs are interleaved across bundles so background load affects all of them alike.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { BUNDLE_SETTINGS, esbuildOptions, type BundleArch } from '../infra/bundling/bundleSettings';
import { buildHandlerAsset } from '../infra/bundling/buildHandlerAsset';
import { HANDLER_NAMES, handlerEntry } from '../infra/bundling/handlerCatalog';

const SIZE_TARGET_KB = 500;
const RATIO_TARGET = 3;
const EMPTY = '(empty handler)';

/** Settings a handler may validate when its module loads; dummies, nothing is called. */
const IMPORT_ENV = {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  SENTINEL_TABLE_PREFIX: 'sentinel-bench-',
  ROCKET_NODE_URL: 'http://127.0.0.1:9',
  ROCKET_INDEXER_URL: 'http://127.0.0.1:9/indexer',
  CHAIN_RPS: '4',
  PUBLIC_BASE_URL: 'https://links.example.com',
  MAIL_FROM: 'sentinel@example.com',
  SES_CONFIGURATION_SET: 'bench',
  LINK_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:111122223333:secret:bench',
  COLLECT_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/111122223333/bench-collect',
  NOTIFY_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/111122223333/bench-notify',
  SIGN_REVOCATION_FUNCTION_NAME: 'bench-sign-revocation',
  POWERTOOLS_METRICS_DISABLED: 'true',
};

interface Bundle {
  name: string;
  file: string;
  bytes: number;
  largestInput: string;
}

interface Measured extends Bundle {
  coldMs: number;
  importMs: number;
  /** CPU time (user + system, all threads) of the whole process: what load on the machine disturbs least. */
  cpuMs: number;
}

function parseRuns(argv: readonly string[]): number {
  const i = argv.indexOf('--runs');
  const runs = i >= 0 ? Number(argv[i + 1]) : 7;
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${argv[i + 1]}`);
  return runs;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The npm package (or the project's own code) contributing most bytes to the output. */
function largestInput(metafile: Metafile): string {
  const byPackage = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
      const key = match?.[1] ?? 'project code';
      byPackage.set(key, (byPackage.get(key) ?? 0) + bytesInOutput);
    }
  }
  const [top] = [...byPackage.entries()].sort((a, b) => b[1] - a[1]);
  return top ? `${top[0]} (${(top[1] / 1024).toFixed(0)} KB)` : '-';
}

async function bundleEmpty(name: string, entry: string, dir: string): Promise<Bundle> {
  const result = await build(esbuildOptions(entry, dir, []));
  const file = join(dir, BUNDLE_SETTINGS.outFile);
  return { name, file, bytes: statSync(file).size, largestInput: largestInput(result.metafile ?? { inputs: {}, outputs: {} }) };
}

/** One cold start: a fresh process that imports the bundle; returns [process ms, import ms, process CPU ms]. */
function coldStart(file: string): [number, number, number] {
  const script = `const t=performance.now();const m=await import(${JSON.stringify(pathToFileURL(file).href)});` +
    `if(typeof m.handler!=='function')throw new Error('no handler export');const c=process.cpuUsage();console.log(performance.now()-t,(c.user+c.system)/1000);`;
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], {
    env: { PATH: process.env['PATH'] ?? '', ...IMPORT_ENV },
    encoding: 'utf8',
  });
  const total = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0) throw new Error(`importing ${file} failed: ${run.stderr.trim().split('\n').slice(0, 3).join(' ')}`);
  const [importMs, cpuMs] = run.stdout.trim().split(' ').map(Number);
  return [total, importMs ?? Number.NaN, cpuMs ?? Number.NaN];
}

function table(rows: Measured[], empty: Measured): string {
  const header = ['function', 'size (min)', `< ${SIZE_TARGET_KB} KB`, 'import ms', 'cold start ms', 'x empty', `< ${RATIO_TARGET}x`, 'CPU ms', 'x empty (CPU)', 'largest input'];
  const lines = rows.map((r) => {
    const kb = r.bytes / 1024;
    const ratio = r.coldMs / empty.coldMs;
    const cpuRatio = r.cpuMs / empty.cpuMs;
    return [
      r.name,
      `${kb.toFixed(1)} KB`,
      kb < SIZE_TARGET_KB ? 'yes' : 'NO',
      r.importMs.toFixed(1),
      r.coldMs.toFixed(1),
      ratio.toFixed(2),
      ratio < RATIO_TARGET ? 'yes' : 'NO',
      r.cpuMs.toFixed(1),
      cpuRatio.toFixed(2),
      r.largestInput,
    ];
  });
  const all = [header, ...lines];
  const widths = header.map((_, i) => Math.max(...all.map((l) => (l[i] ?? '').length)));
  const fmt = (l: string[]): string => `| ${l.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [fmt(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(fmt)].join('\n');
}

async function main(): Promise<void> {
  const runs = parseRuns(process.argv.slice(2));
  const arch: BundleArch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const work = mkdtempSync(join(tmpdir(), 'sentinel-bundles-'));
  try {
    const emptyEntry = join(work, 'empty-handler.ts');
    writeFileSync(emptyEntry, 'export const handler = async (): Promise<object> => ({});\n');
    const bundles: Bundle[] = [await bundleEmpty(EMPTY, emptyEntry, join(work, 'empty'))];
    const skipped: string[] = [];
    for (const name of HANDLER_NAMES) {
      const entry = handlerEntry(name);
      if (!existsSync(entry)) {
        skipped.push(`${name}: no ${entry}`);
        continue;
      }
      try {
        const asset = await buildHandlerAsset(name, arch, join(work, name));
        bundles.push({ name, file: asset.file, bytes: statSync(asset.file).size, largestInput: largestInput(asset.metafile) });
      } catch (err) {
        skipped.push(`${name}: ${(err as Error).message.split('\n')[0]}`);
      }
    }

    const samples = new Map<string, [number, number, number][]>(bundles.map((b) => [b.name, []]));
    coldStart(bundles[0]?.file as string); // warm the OS file cache for node itself
    for (let i = 0; i < runs; i++) {
      for (const b of bundles) {
        try {
          samples.get(b.name)?.push(coldStart(b.file));
        } catch (err) {
          skipped.push(`${b.name}: ${(err as Error).message}`);
          samples.delete(b.name);
        }
      }
      bundles.splice(0, bundles.length, ...bundles.filter((b) => samples.has(b.name)));
    }
    const measured: Measured[] = bundles.map((b) => {
      const s = samples.get(b.name) ?? [];
      return { ...b, coldMs: median(s.map((x) => x[0])), importMs: median(s.map((x) => x[1])), cpuMs: median(s.map((x) => x[2])) };
    });
    const empty = measured.find((m) => m.name === EMPTY);
    if (!empty) throw new Error('the empty handler could not be measured');

    console.log(`Bundles: esbuild ${BUNDLE_SETTINGS.format.toUpperCase()} ${BUNDLE_SETTINGS.target}, minified, tree-shaken; node ${process.version} ${process.arch}; median of ${runs} cold starts each.\n`);
    console.log(table(measured, empty));
    console.log(`\nload average (1 min) ${os.loadavg()[0]?.toFixed(1)} at the end; "CPU ms" is the process's user + system time, less disturbed by load than the wall clock.`);
    for (const line of [...new Set(skipped)]) console.log(`\nnot measured: ${line}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
