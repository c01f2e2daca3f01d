import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findOnPath } from '../../../local/childProcess';
import { freePort } from '../../../local/freePort';
import { createDocumentClient, createDynamoDbClient } from '../../../functions/store/documentClient';
import { SnapshotsRepository } from '../../../functions/store/snapshotsRepository';

const REPO = resolve('.');
const BIN = join(REPO, 'bin/sentinel.js');

/** What a chat receiver recorded. */
export type Received = { kind: string; status: number; body: unknown };

/** One command's end: exit code and output. */
export type Ran = { code: number | null; stdout: string; stderr: string };

/**
 * GETs `url`'s JSON, once more when the request met a closed connection: the local servers close
 * an idle keep-alive connection after a few seconds, and a request sent on it as it closes fails.
 */
async function getJson<T>(url: string): Promise<T> {
  const get = async () => (await (await fetch(url)).json()) as T;
  return get().catch((error: unknown) => {
    if (error instanceof TypeError && error.message === 'fetch failed') return get();
    throw error;
  });
}

/** A folder with node, npm, sh and setpriv only: the `PATH` of a machine with Node and no Java. */
async function pathWithoutJava(): Promise<string> {
  const bin = await mkdtemp(join(tmpdir(), 'sentinel-nojava-bin-'));
  for (const tool of ['node', 'npm', 'sh', 'setpriv']) {
    const found = findOnPath(tool);
    if (found) await symlink(found, join(bin, tool));
  }
  return bin;
}

/**
 * A fresh state folder and free ports for one `npm start`, with the environment a second terminal
 * has: no service settings and no demo variables, so only the state folder tells the CLI where the
 * services are; and that terminal's CLI, shell, inbox and chat receiver. `java: false`: a machine
 * without Java (no `JAVA_HOME`, a `PATH` with node, npm, sh and setpriv only).
 */
export async function npmStartTerminal(options: { readonly java?: boolean } = {}) {
  const stateDir = await mkdtemp(join(tmpdir(), 'sentinel-kept-'));
  const ports = { SENTINEL_PORT: await freePort(), SENTINEL_INBOX_PORT: await freePort(), SENTINEL_CHANNELS_PORT: await freePort() };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SENTINEL_STATE_DIR: stateDir,
    ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
  };
  for (const key of [
    'DYNAMODB_ENDPOINT',
    'SES_ENDPOINT',
    'ROCKET_NODE_URL',
    'ROCKET_INDEXER_URL',
    'PUBLIC_BASE_URL',
    'TELEGRAM_API_URL',
    'PAGERDUTY_EVENTS_URL',
  ]) {
    delete env[key];
  }
  for (const key of Object.keys(env)) if (key.startsWith('SENTINEL_DEMO_')) delete env[key];
  if (options.java === false) {
    env['PATH'] = await pathWithoutJava();
    delete env['JAVA_HOME'];
  }
  const services = async () =>
    JSON.parse(await readFile(join(stateDir, 'services.json'), 'utf8')) as {
      SIM_CONTROL_URL: string;
      DYNAMODB_ENDPOINT: string;
      SENTINEL_TABLE_PREFIX: string;
    };
  const ran = (run: ReturnType<typeof spawnSync>): Ran => ({ code: run.status, stdout: String(run.stdout), stderr: String(run.stderr) });
  return {
    repo: REPO,
    stateDir,
    ports,
    env,
    /** The CLI (`node bin/sentinel.js`) in a second terminal at `cwd`. */
    cli: (cwd: string, ...args: string[]): Ran => ran(spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8', timeout: 120_000 })),
    /** A shell command in that terminal. */
    shell: (cwd: string, command: string): Ran => ran(spawnSync('sh', ['-c', command], { cwd, env, encoding: 'utf8', timeout: 120_000 })),
    /** What the local chat receivers were sent. */
    chat: (): Promise<Received[]> => getJson<Received[]>(`http://127.0.0.1:${ports.SENTINEL_CHANNELS_PORT}/received`),
    /** The local inbox's subjects, oldest first. */
    subjects: async (): Promise<string[]> =>
      (await getJson<{ emails: { subject: string }[] }>(`http://127.0.0.1:${ports.SENTINEL_INBOX_PORT}/store`)).emails.map((m) => m.subject),
    /** The running stack's services file. */
    services,
    /**
     * When the running stack last polled `address` successfully (what `sentinel status` shows as `last poll ok at`),
     * read from its store: a look costs one query, not a CLI process.
     */
    lastPollAt: async (address: string): Promise<number | undefined> => {
      const { DYNAMODB_ENDPOINT: endpoint, SENTINEL_TABLE_PREFIX: prefix } = await services();
      // A client per look, closed after it: no socket of the test's stays open on a port a restart's stack may listen on.
      const client = createDynamoDbClient({ endpoint });
      try {
        const latest = await new SnapshotsRepository(createDocumentClient(client), prefix).latest(address);
        return latest ? (latest.fetchedAt ?? latest.polledAt) : undefined;
      } finally {
        client.destroy();
      }
    },
  };
}
