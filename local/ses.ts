import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnManaged, type ManagedProcess } from './childProcess';
import { freePort } from './freePort';
import { LocalServiceError } from './localServiceError';
import { startRawCaptureProxy, type RawCaptureProxy } from './sesRawCapture';

export interface SesLocalOptions {
  /** Port of the SES endpoint and inbox page; a free one when omitted. */
  readonly port?: number;
  /** How long to wait for it to answer; default 30 s. */
  readonly startTimeoutMs?: number;
  /** Emails the store keeps (the oldest are dropped beyond it); default 1,000. */
  readonly maxEmails?: number;
  /** Bytes of stored email (as JSON) the store keeps, oldest dropped first; default 32 MiB. */
  readonly maxStoreBytes?: number;
  /** A file (JSON lines) keeping the stored emails across restarts (`npm start`'s state folder); none by default. */
  readonly storeFile?: string;
}

/** How many emails the local SES store keeps by default. */
export const DEFAULT_MAX_EMAILS = 1_000;
const DEFAULT_MAX_STORE_BYTES = 32 * 1024 * 1024;

/** A running local SES endpoint (`aws-ses-v2-local`). */
export interface SesLocal {
  /** Give this to the SES client as its endpoint. */
  readonly endpoint: string;
  /** The inbox page a person opens in a browser. */
  readonly inboxUrl: string;
  /** Pid of the `aws-ses-v2-local` process. */
  readonly pid: number;
  stop(): Promise<void>;
}

const SERVICE = 'local SES';

/**
 * Starts `aws-ses-v2-local` in its own Node process (so each instance has its own store),
 * behind a small proxy on `port` that also keeps the raw MIME of each `SendRawEmail`
 * (`GET /raw/<messageId>`). Sent mail is listed as JSON at `/store`; `POST /clear-store` empties it.
 * The store keeps the newest `maxEmails` (and at most `maxStoreBytes`): older mail is dropped,
 * so the inbox page keeps working however long the system runs; with `storeFile`, it starts with
 * what that file kept (the raw MIME of `/raw/<id>` is kept for this run only).
 */
export async function startSesLocal(options: SesLocalOptions = {}): Promise<SesLocal> {
  const dist = join(dirname(createRequire(import.meta.url).resolve('aws-ses-v2-local/package.json')), 'dist');
  const maxEmails = options.maxEmails ?? DEFAULT_MAX_EMAILS;
  const innerPort = await freePort();
  let child: ManagedProcess;
  try {
    child = await spawnManaged(
      process.execPath,
      [
        '--import',
        pathToFileURL(fileURLToPath(new URL('./sesStoreCap.mjs', import.meta.url))).href,
        join(dist, 'cli.js'),
        '--host',
        '127.0.0.1',
        '--port',
        String(innerPort),
      ],
      {
        env: {
          ...process.env,
          SES_LOCAL_STORE_MODULE: join(dist, 'store.js'),
          SES_LOCAL_MAX_EMAILS: String(maxEmails),
          SES_LOCAL_MAX_BYTES: String(options.maxStoreBytes ?? DEFAULT_MAX_STORE_BYTES),
          ...(options.storeFile ? { SES_LOCAL_STORE_FILE: options.storeFile } : {}),
        },
      },
    );
  } catch (error) {
    throw new LocalServiceError(SERVICE, 'could not start aws-ses-v2-local', { cause: error });
  }
  const upstream = new URL(`http://127.0.0.1:${innerPort}`);
  const timeoutMs = options.startTimeoutMs ?? 30_000;
  if (!(await answers(upstream, child, timeoutMs))) {
    await child.stop();
    throw new LocalServiceError(SERVICE, `did not answer within ${timeoutMs} ms. Output:\n${child.output().trim()}`);
  }
  let proxy: RawCaptureProxy;
  try {
    proxy = await startRawCaptureProxy(upstream, options.port ?? 0, { maxMessages: maxEmails });
  } catch (error) {
    await child.stop();
    throw new LocalServiceError(SERVICE, `could not listen on port ${options.port ?? 0}`, { cause: error });
  }
  const endpoint = `http://127.0.0.1:${proxy.port}`;
  return {
    endpoint,
    inboxUrl: `${endpoint}/`,
    pid: child.pid,
    async stop() {
      await proxy.stop();
      await child.stop();
    },
  };
}

async function answers(base: URL, child: ManagedProcess, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !child.exitStatus()) {
    try {
      const res = await fetch(new URL('/health-check', base), { signal: AbortSignal.timeout(1_000) });
      if (res.ok) return true;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  return false;
}
