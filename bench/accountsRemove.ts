/**
 * Bulk account removal benchmark (`npm run bench:remove [-- --accounts 5000]`).
 *
 * Starts DynamoDB Local (in memory, on a free port), creates the tables under a fresh prefix,
 * imports N accounts, and removes them three ways, re-importing in between:
 * - `accounts remove <address>` once per account, in one process (the per-account DynamoDB work;
 *   a shell loop also pays a CLI start, about 2.5 s, each time), timed over 200 and scaled to N;
 * - `accounts remove --file F` (BatchGetItem to find them, then BatchWriteItem deletes in parallel);
 * - `accounts remove <a> <b> ...` with every address as an argument (the same path).
 * DynamoDB Local is not DynamoDB: the numbers compare the paths, they do not predict AWS latency.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCliRuntime, type CliContext } from '../cli/cliRuntime';
import { runCli } from '../cli/main';
import { loadSettings } from '../functions/config/settings';
import { newTrackedAccount } from '../functions/domain/trackedAccount';
import { accountSettingsSchema } from '../functions/domain/account';
import { createTables } from '../functions/store/createTables';
import { createDynamoDbClient } from '../functions/store/documentClient';
import { startDynamoDbLocal } from '../local/dynamodb';

const argv = process.argv.slice(2);
const at = argv.indexOf('--accounts');
const N = at >= 0 ? Number(argv[at + 1]) : 5_000;
const SAMPLE = Math.min(200, N);

const dynamo = await startDynamoDbLocal({ inMemory: true });
try {
  const prefix = `bench${Date.now().toString(36)}-`;
  await createTables(createDynamoDbClient({ endpoint: dynamo.endpoint }), prefix);
  const settings = loadSettings({ DYNAMODB_ENDPOINT: dynamo.endpoint, SENTINEL_TABLE_PREFIX: prefix });
  const rt = createCliRuntime(settings);
  const context: CliContext = { runtime: async () => rt, io: { out: () => undefined, err: (t) => void process.stderr.write(t), interactive: false } };
  const addresses = Array.from({ length: N }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
  const seed = async () => {
    const now = Date.now();
    const accounts = addresses.map((address) => newTrackedAccount(accountSettingsSchema.parse({ address, email: 'ops@example.com' }), now));
    await rt.repos.accounts.importMany(accounts);
  };
  const dir = await mkdtemp(join(tmpdir(), 'sentinel-bench-remove-'));
  const file = join(dir, 'remove.txt');
  await writeFile(file, addresses.join('\n'));

  const rows: [string, string, string][] = [];
  await seed();
  let t = performance.now();
  for (const address of addresses.slice(0, SAMPLE)) if ((await runCli(['accounts', 'remove', address], context)) !== 0) throw new Error('remove failed');
  const each = (performance.now() - t) / SAMPLE;
  rows.push(['remove <address>, one at a time', `${each.toFixed(1)} ms`, `${((each * N) / 1000).toFixed(1)} s (scaled from ${SAMPLE})`]);

  await seed();
  t = performance.now();
  if ((await runCli(['accounts', 'remove', '--file', file], context)) !== 0) throw new Error('remove --file failed');
  const byFile = performance.now() - t;
  rows.push(['remove --file F', `${(byFile / N).toFixed(2)} ms`, `${(byFile / 1000).toFixed(1)} s`]);
  if ((await rt.repos.accounts.list()).length !== 0) throw new Error('accounts left after remove --file');

  await seed();
  t = performance.now();
  if ((await runCli(['accounts', 'remove', ...addresses], context)) !== 0) throw new Error('remove <a> <b> ... failed');
  const byArgs = performance.now() - t;
  rows.push(['remove <a> <b> ...', `${(byArgs / N).toFixed(2)} ms`, `${(byArgs / 1000).toFixed(1)} s`]);

  const header: [string, string, string] = ['path', 'per account', `${N.toLocaleString('en')} accounts`];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: readonly string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(`accounts remove against DynamoDB Local (in memory), ${N.toLocaleString('en')} accounts`);
  console.log([line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'));
} finally {
  await dynamo.stop();
}
