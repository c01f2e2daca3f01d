import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request as the server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Responder = (res: ServerResponse, req: SeenRequest) => void;

/** A real HTTP server on 127.0.0.1:0 answering each request with the next scripted responder. */
export interface ScriptedServer {
  readonly baseUrl: string;
  readonly requests: SeenRequest[];
  /** Connections accepted so far. */
  connections(): number;
  /** Queues responders, used in order; an empty queue answers 599. */
  script(...responders: Responder[]): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  let queue: Responder[] = [];
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: SeenRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(seen);
      const next = queue.shift();
      if (next) next(res, seen);
      else res.writeHead(599, { 'content-type': 'text/plain' }).end('no scripted response');
    });
  });
  server.on('connection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    script: (...responders) => queue.push(...responders),
    reset: () => {
      queue = [];
      requests.length = 0;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}

/** Responders for the common cases. */
export const reply = {
  json:
    (status: number, body: unknown, headers: Record<string, string> = {}): Responder =>
    (res) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    },
  raw:
    (status: number, contentType: string, text: string, headers: Record<string, string> = {}): Responder =>
    (res) => {
      res.writeHead(status, { 'content-type': contentType, ...headers }).end(text);
    },
  /** Never answers (until the server closes). */
  hang: (): Responder => () => {},
  /** Announces `declared` bytes, sends `text`, then drops the connection. */
  cutOff:
    (text: string, declared: number): Responder =>
    (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(declared) });
      res.write(text);
      setTimeout(() => res.socket?.destroy(), 10);
    },
};
