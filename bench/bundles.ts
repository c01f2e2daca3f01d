/**
 * Bundle benchmark (`npm run bench:bundles [-- --runs 9]`): builds every handler's asset exactly as the
 * CDK construct does (`infra/bundling/buildHandlerAsset.ts`), then reports per function
 * - the minified bundle size (index.mjs, without its source map);
 * - the cold start of a fresh `node` process that imports the bundle and checks `handler`, median of
 *   several runs, relative to an empty handler bundled the same way in the same run, target < 3x;
 *   and, inside that, the time the `import()` itself took;
 * - for the link pages (what a person waits on), the first response at a cold start: `import()` plus
 *   the first request (a GET of a validly signed link: settings, clients, link check, one DynamoDB
 *   read answered by a local stand-in, the page rendered), p50 and p99 of the runs, target < 1 s.
 * Runs are interleaved across bundles so background load affects all of them alike.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { ActionLinks } from '../functions/links/actionLinks';
import { LinkTokenCodec } from '../functions/links/linkToken';
import { BUNDLE_SETTINGS, esbuildOptions, type BundleArch } from '../infra/bundling/bundleSettings';
import { buildHandlerAsset } from '../infra/bundling/buildHandlerAsset';
import { HANDLER_NAMES, type HandlerName } from '../functions/config/handlerCatalog';
import { handlerEntry } from '../infra/bundling/handlerEntry';
import { percentile } from './stats';

const run = promisify(execFile);
const RATIO_TARGET = 3;
const FIRST_RESPONSE_TARGET_MS = 1_000;
const EMPTY = '(empty handler)';
const LINK_SECRET = 'bench-link-secret-0123456789abcdef';
const PUBLIC_BASE_URL = 'https://links.example.com';
const ACCOUNT = '0x1111111111111111111111111111111111111111';

/** Settings a handler may validate when it starts; dummies, and every AWS call goes to the local stand-in below. */
const IMPORT_ENV = {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  SENTINEL_TABLE_PREFIX: 'sentinel-bench-',
  ROCKET_NODE_URL: 'http://127.0.0.1:9',
  ROCKET_INDEXER_URL: 'http://127.0.0.1:9/indexer',
  CHAIN_RPS: '4',
  PUBLIC_BASE_URL,
  MAIL_FROM: 'sentinel@example.com',
  SES_CONFIGURATION_SET: 'bench',
  SENTINEL_LINK_SECRET: LINK_SECRET,
  COLLECT_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/111122223333/bench-collect',
  NOTIFY_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/111122223333/bench-notify',
  REPORT_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/111122223333/bench-report',
  SIGN_REVOCATION_FUNCTION_NAME: 'bench-sign-revocation',
  CHANNEL_TEST_FUNCTION_NAME: 'bench-channel-test',
  POWERTOOLS_METRICS_DISABLED: 'true',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
};

/** The first request each link page gets: a GET of a link signed with `LINK_SECRET`. */
function firstRequests(): Partial<Record<HandlerName, object>> {
  const links = new ActionLinks(new LinkTokenCodec(LINK_SECRET), PUBLIC_BASE_URL);
  const now = Date.now();
  const get = (url: string): object => {
    const { pathname, search } = new URL(url);
    return {
      version: '2.0',
      rawPath: pathname,
      rawQueryString: search.slice(1),
      headers: { host: 'links.example.com' },
      requestContext: { http: { method: 'GET' } },
      isBase64Encoded: false,
    };
  };
  return {
    'revoke-page': get(links.build({ purpose: 'revoke', account: ACCOUNT, delegate: '0x2222222222222222222222222222222222222222' }, now)),
    'preferences-page': get(links.build({ purpose: 'preferences', account: ACCOUNT, email: 'someone@example.com' }, now)),
  };
}

/** DynamoDB's stand-in for the first requests: nothing stored (GetItem finds no item, Query no items). */
async function emptyDynamoDb(): Promise<{ endpoint: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume().on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      const body =
        target.endsWith('.Query') || target.endsWith('.Scan')
          ? { Items: [], Count: 0, ScannedCount: 0 }
          : target.endsWith('.BatchGetItem')
            ? { Responses: {} }
            : {};
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Bundle {
  name: string;
  file: string;
  bytes: number;
  largestInput: string;
  /** The first request, for the link pages. */
  request?: object;
}

/** One cold start: process ms, import ms, process CPU ms, and import + first response ms (NaN without a request). */
type Sample = [number, number, number, number];

interface Measured extends Bundle {
  coldMs: number;
  importMs: number;
  /** CPU time (user + system, all threads) of the whole process: what load on the machine disturbs least. */
  cpuMs: number;
  firstResponseP50: number;
  firstResponseP99: number;
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

/** One cold start: a fresh process that imports the bundle and, for a link page, answers its first request. */
async function coldStart(bundle: Bundle, dynamoDbEndpoint: string): Promise<Sample> {
  const request = bundle.request === undefined ? 'null' : JSON.stringify(bundle.request);
  const script =
    `const t=performance.now();const m=await import(${JSON.stringify(pathToFileURL(bundle.file).href)});` +
    `if(typeof m.handler!=='function')throw new Error('no handler export');const i=performance.now()-t;const q=${request};let f=NaN;` +
    `if(q){const r=await m.handler(q,{functionName:'bench',awsRequestId:'bench',getRemainingTimeInMillis:()=>10000});` +
    `if(typeof r?.statusCode!=='number'||r.statusCode>=500)throw new Error('first request answered '+r?.statusCode);f=performance.now()-t;}` +
    `const c=process.cpuUsage();console.log(i,(c.user+c.system)/1000,f);`;
  const started = process.hrtime.bigint();
  let stdout: string;
  try {
    ({ stdout } = await run(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], {
      env: { PATH: process.env['PATH'] ?? '', ...IMPORT_ENV, DYNAMODB_ENDPOINT: dynamoDbEndpoint },
      encoding: 'utf8',
    }));
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? (error as Error).message);
    throw new Error(`cold start of ${bundle.file} failed: ${stderr.trim().split('\n').slice(0, 3).join(' ')}`);
  }
  const total = Number(process.hrtime.bigint() - started) / 1e6;
  const [importMs, cpuMs, firstMs] = stdout.trim().split('\n').at(-1)?.split(' ').map(Number) ?? [];
  return [total, importMs ?? Number.NaN, cpuMs ?? Number.NaN, firstMs ?? Number.NaN];
}

function table(rows: Measured[], empty: Measured): string {
  const header = [
    'function',
    'size (min)',
    'import ms',
    'cold start ms',
    'x empty',
    `< ${RATIO_TARGET}x`,
    'CPU ms',
    'first response p50 / p99 ms',
    `p99 < ${FIRST_RESPONSE_TARGET_MS} ms`,
    'largest input',
  ];
  const lines = rows.map((r) => {
    const ratio = r.coldMs / empty.coldMs;
    const page = r.request !== undefined;
    return [
      r.name,
      `${(r.bytes / 1024).toFixed(1)} KB`,
      r.importMs.toFixed(1),
      r.coldMs.toFixed(1),
      ratio.toFixed(2),
      ratio < RATIO_TARGET ? 'yes' : 'NO',
      r.cpuMs.toFixed(1),
      page ? `${r.firstResponseP50.toFixed(1)} / ${r.firstResponseP99.toFixed(1)}` : '-',
      page ? (r.firstResponseP99 < FIRST_RESPONSE_TARGET_MS ? 'yes' : 'NO') : '-',
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
  const dynamoDb = await emptyDynamoDb();
  try {
    const emptyEntry = join(work, 'empty-handler.ts');
    writeFileSync(emptyEntry, 'export const handler = async (): Promise<object> => ({});\n');
    const bundles: Bundle[] = [await bundleEmpty(EMPTY, emptyEntry, join(work, 'empty'))];
    const requests = firstRequests();
    const skipped: string[] = [];
    for (const name of HANDLER_NAMES) {
      const entry = handlerEntry(name);
      if (!existsSync(entry)) {
        skipped.push(`${name}: no ${entry}`);
        continue;
      }
      try {
        const asset = await buildHandlerAsset(name, arch, join(work, name));
        const request = requests[name];
        bundles.push({
          name,
          file: asset.file,
          bytes: statSync(asset.file).size,
          largestInput: largestInput(asset.metafile),
          ...(request === undefined ? {} : { request }),
        });
      } catch (err) {
        skipped.push(`${name}: ${(err as Error).message.split('\n')[0]}`);
      }
    }

    const samples = new Map<string, Sample[]>(bundles.map((b) => [b.name, []]));
    await coldStart(bundles[0] as Bundle, dynamoDb.endpoint); // warm the OS file cache for node itself
    for (let i = 0; i < runs; i++) {
      for (const b of bundles) {
        try {
          samples.get(b.name)?.push(await coldStart(b, dynamoDb.endpoint));
        } catch (err) {
          skipped.push(`${b.name}: ${(err as Error).message}`);
          samples.delete(b.name);
        }
      }
      bundles.splice(0, bundles.length, ...bundles.filter((b) => samples.has(b.name)));
    }
    const measured: Measured[] = bundles.map((b) => {
      const s = samples.get(b.name) ?? [];
      const firstSorted = s.map((x) => x[3]).sort((x, y) => x - y);
      return {
        ...b,
        coldMs: median(s.map((x) => x[0])),
        importMs: median(s.map((x) => x[1])),
        cpuMs: median(s.map((x) => x[2])),
        firstResponseP50: percentile(firstSorted, 50),
        firstResponseP99: percentile(firstSorted, 99),
      };
    });
    const empty = measured.find((m) => m.name === EMPTY);
    if (!empty) throw new Error('the empty handler could not be measured');

    console.log(
      `Bundles: esbuild ${BUNDLE_SETTINGS.format.toUpperCase()} ${BUNDLE_SETTINGS.target}, minified, tree-shaken; node ${process.version} ${process.arch}; ${runs} cold starts each (medians; first response: nearest-rank p50 / p99).\n`,
    );
    console.log(table(measured, empty));
    console.log(
      `\nload average (1 min) ${os.loadavg()[0]?.toFixed(1)} at the end; "CPU ms" is the process's user + system time, less disturbed by load than the wall clock.`,
    );
    for (const line of [...new Set(skipped)]) console.log(`\nnot measured: ${line}`);
  } finally {
    await dynamoDb.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
