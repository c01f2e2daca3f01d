import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FaultDecision } from '../faults/faultProfile';
import { Simulator, type SimulatorOptions } from '../simulator';
import { matchChainRoute } from './chainRoutes';
import { handleControl } from './controlRoutes';
import { text, type HttpResponse } from './httpResponse';
import { BodyTooLargeError, parseJson, readBody } from './readBody';

/** Options of `startSimulator`. */
export interface StartOptions extends SimulatorOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Path prefix of the indexer routes. Default `/indexer`. */
  indexerPrefix?: string;
  /** Path prefix of the control API. Default `/_control`. */
  controlPrefix?: string;
  /** Called after every request that may have changed the chain (any method but GET, answered or not). */
  onChange?: () => void;
}

/** A simulator listening on HTTP. */
export interface RunningSimulator {
  /** Node base URL: `account-nonce`, `delegate-traders`, `transaction`, `batch_transactions` sit right below it. */
  nodeUrl: string;
  /** Indexer base URL: `portfolio` sits right below it. */
  indexerUrl: string;
  /** Control API base URL. */
  controlUrl: string;
  port: number;
  /** Direct access to the simulated chain (clock, ledger, model, faults). */
  simulator: Simulator;
  /** Stops listening, drops open connections (hung requests included). */
  close(): Promise<void>;
}

/** Starts the chain simulator on HTTP. */
export async function startSimulator(options: StartOptions = {}): Promise<RunningSimulator> {
  const indexerPrefix = normalizePrefix(options.indexerPrefix ?? '/indexer', 'indexerPrefix');
  const controlPrefix = normalizePrefix(options.controlPrefix ?? '/_control', 'controlPrefix');
  if (controlPrefix === '' || controlPrefix === indexerPrefix) throw new RangeError('controlPrefix must be non-empty and differ from indexerPrefix');
  const simulator = new Simulator(options);
  const pending = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  let closing = false;

  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      if (ms <= 0) return resolve();
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const server = createServer((req, res) => {
    pending.add(res);
    res.on('close', () => pending.delete(res));
    handle(req, res)
      .finally(() => {
        if (req.method !== 'GET') options.onChange?.();
      })
      .catch((err: unknown) => {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        const tooLarge = err instanceof BodyTooLargeError;
        write(res, text(tooLarge ? 413 : 500, tooLarge ? err.message : 'internal server error'));
      });
  });
  server.keepAliveTimeout = 30_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator');
    const method = req.method ?? 'GET';
    const { pathname } = url;
    if (pathname === controlPrefix || pathname.startsWith(`${controlPrefix}/`)) {
      const body = await readBody(req);
      let parsed: unknown;
      try {
        parsed = parseJson(body);
      } catch {
        write(res, text(400, 'request body is not valid JSON'));
        return;
      }
      write(res, handleControl(simulator, method, pathname.slice(controlPrefix.length), parsed));
      return;
    }
    const endpoint = matchChainRoute(pathname, indexerPrefix);
    if (endpoint === undefined) {
      write(res, text(404, `not found: ${pathname.slice(0, 100)}`));
      return;
    }
    if (endpoint.method !== method) {
      write(res, text(405, `method ${method} not allowed`, { allow: endpoint.method }));
      return;
    }
    const decision = simulator.faults.decide(endpoint.route);
    const body = await readBody(req);
    await wait(decision.delayMs);
    if (closing) return;
    const early = earlyFault(decision);
    if (early === 'hang') return;
    if (early !== undefined) {
      write(res, early);
      return;
    }
    const response = endpoint.handle(simulator, url.searchParams, body);
    if (decision.kind === 'malformed') {
      write(res, { ...response, body: response.body.slice(0, Math.max(1, Math.floor(response.body.length / 2))) });
    } else if (decision.kind === 'truncate') {
      writeTruncated(res, response);
    } else {
      write(res, response);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    nodeUrl: base,
    indexerUrl: `${base}${indexerPrefix}`,
    controlUrl: `${base}${controlPrefix}`,
    port,
    simulator,
    async close() {
      closing = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const res of pending) res.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** The response of a fault that happens before the request is handled; 'hang' means none. */
function earlyFault(decision: FaultDecision): HttpResponse | 'hang' | undefined {
  switch (decision.kind) {
    case 'error500':
      return text(500, 'internal server error (injected fault)');
    case 'rateLimit':
      return text(429, 'too many requests (injected fault)', { 'retry-after': String(decision.retryAfterSeconds) });
    case 'hang':
      return 'hang';
    default:
      return undefined;
  }
}

function write(res: ServerResponse, response: HttpResponse): void {
  res.writeHead(response.status, { ...response.headers, 'content-length': Buffer.byteLength(response.body) });
  res.end(response.body);
}

/** Announces the whole body, sends half of it, then drops the connection. */
function writeTruncated(res: ServerResponse, response: HttpResponse): void {
  const bytes = Buffer.from(response.body);
  res.writeHead(response.status, { ...response.headers, 'content-length': bytes.length });
  res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.destroy());
}

function normalizePrefix(prefix: string, name: string): string {
  const trimmed = prefix.replace(/\/+$/, '');
  if (trimmed !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) throw new RangeError(`${name} must look like /segment[/segment...], got "${prefix}"`);
  return trimmed;
}
