import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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
}

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
 */
export async function startSesLocal(options: SesLocalOptions = {}): Promise<SesLocal> {
  const cli = join(dirname(createRequire(import.meta.url).resolve('aws-ses-v2-local/package.json')), 'dist', 'cli.js');
  const innerPort = await freePort();
  let child: ManagedProcess;
  try {
    child = await spawnManaged(process.execPath, [cli, '--host', '127.0.0.1', '--port', String(innerPort)]);
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
    proxy = await startRawCaptureProxy(upstream, options.port ?? 0);
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
