import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { describeError } from '../functions/shared/describeError';
import { pipeline } from 'node:stream/promises';

/** A proxy in front of the local SES endpoint that keeps the raw MIME of every `SendRawEmail`. */
export interface RawCaptureProxy {
  readonly port: number;
  stop(): Promise<void>;
}

const MAX_BODY_BYTES = 40 * 1024 * 1024;

/**
 * Forwards every request to `upstream` unchanged and remembers the raw message of each
 * accepted `SendRawEmail` under the SES message id it was given. The local SES store parses
 * raw mail and drops its headers; this keeps them (the newest `maxMessages`). Other answers,
 * such as the store listing, are streamed through. Extra routes: `GET /raw/<messageId>`
 * (`message/rfc822`); `POST /clear-store` also forgets the raw messages.
 */
export function startRawCaptureProxy(upstream: URL, port: number, options: { host?: string; maxMessages?: number } = {}): Promise<RawCaptureProxy> {
  const host = options.host ?? '127.0.0.1';
  const maxMessages = options.maxMessages ?? Number.POSITIVE_INFINITY;
  const raw = new Map<string, Buffer>();
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`local SES proxy: ${describeError(error, { audience: 'public' })}`);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url ?? '/';
    const rawMatch = req.method === 'GET' ? /^\/raw\/([^/?#]+)$/.exec(path) : null;
    if (rawMatch) {
      const message = raw.get(decodeURIComponent(rawMatch[1] ?? ''));
      if (!message) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('no such message');
        return;
      }
      res.writeHead(200, { 'content-type': 'message/rfc822' }).end(message);
      return;
    }
    const body = await readBody(req);
    if (req.method === 'POST' && path === '/clear-store') raw.clear();
    const sentRaw = req.method === 'POST' && path === '/' ? rawMessageOf(body) : undefined;
    const upstreamRes = await forward(upstream, req, body);
    if (!sentRaw) {
      // Streamed, not buffered: the store listing can be large.
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
      await pipeline(upstreamRes, res);
      return;
    }
    const responseBody = await readBody(upstreamRes);
    if (upstreamRes.statusCode === 200) {
      const messageId = /<MessageId>([^<]+)<\/MessageId>/.exec(responseBody.toString('utf8'))?.[1];
      if (messageId) remember(messageId, sentRaw);
    }
    res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers).end(responseBody);
  }

  /** Keeps the newest `maxMessages`, as the store itself does. */
  function remember(messageId: string, message: Buffer): void {
    raw.set(messageId, message);
    for (const oldest of raw.keys()) {
      if (raw.size <= maxMessages) break;
      raw.delete(oldest);
    }
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      const actualPort = typeof address === 'object' && address !== null ? address.port : port;
      resolve({ port: actualPort, stop: () => close(server) });
    });
  });
}

function rawMessageOf(body: Buffer): Buffer | undefined {
  const form = new URLSearchParams(body.toString('utf8'));
  if (form.get('Action') !== 'SendRawEmail') return undefined;
  const data = form.get('RawMessage.Data');
  return data === null ? undefined : Buffer.from(data, 'base64');
}

/**
 * One new connection per forwarded request (`agent: false`): a pooled keep-alive connection the
 * store closed while idle failed the next request sent on it ("socket hang up", answered 502),
 * seen under load. A send is not idempotent, so a retry is no mend.
 */
function forward(upstream: URL, req: IncomingMessage, body: Buffer): Promise<IncomingMessage> {
  const { connection: _hopByHop, ...headers } = req.headers;
  return new Promise((resolve, reject) => {
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        agent: false,
        headers: { ...headers, host: upstream.host, 'content-length': String(body.length) },
      },
      resolve,
    );
    out.once('error', reject);
    out.end(body);
  });
}

async function readBody(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new Error(`body larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
