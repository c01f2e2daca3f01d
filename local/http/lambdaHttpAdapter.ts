import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { lambdaContext } from '../lambdaContext';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';

/** A Lambda handler for HTTP API (payload v2) / function URL events. */
export type HttpLambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

/** A route: requests whose path equals `path` or starts with `path + '/'` go to `handler`. */
export interface HttpRoute {
  readonly path: string;
  readonly handler: HttpLambdaHandler;
  readonly functionName: string;
}

export interface LambdaHttpServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024;

/**
 * Serves Lambda handlers over plain HTTP the way API Gateway's HTTP API (payload format 2.0)
 * does in AWS: each request becomes an `APIGatewayProxyEventV2`, the structured result becomes
 * the response. The same handler code runs locally and deployed.
 */
export async function startLambdaHttpServer(options: { routes: readonly HttpRoute[]; port?: number; host?: string }): Promise<LambdaHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const server: Server = createServer((req, res) => {
    handle(req, res, options.routes).catch((err: unknown) => {
      console.error(JSON.stringify({ level: 'ERROR', message: 'local HTTP adapter failed', error: String(err) }));
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Internal error');
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, routes: readonly HttpRoute[]): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const route = routes.find((r) => url.pathname === r.path || url.pathname.startsWith(`${r.path}/`));
  if (!route) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Not found');
    return;
  }
  const body = await readBody(req);
  if (body === null) {
    res.writeHead(413, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Request body too large');
    return;
  }
  const event = toEvent(req, url, body);
  const result = await route.handler(event, lambdaContext(route.functionName));
  writeResult(res, result);
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.destroy();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Builds the payload-v2 event API Gateway would send for this request. */
export function toEvent(req: IncomingMessage, url: URL, body: Buffer): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (name === 'cookie') {
      cookies.push(...String(value).split(/;\s*/).filter(Boolean));
      continue;
    }
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
  const method = (req.method ?? 'GET').toUpperCase();
  const now = new Date();
  const textual = /^(text\/|application\/(json|x-www-form-urlencoded))/i.test(headers['content-type'] ?? 'text/plain');
  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    headers,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0] ?? 'localhost',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    isBase64Encoded: false,
  };
  if (cookies.length > 0) event.cookies = cookies;
  if (Object.keys(query).length > 0) event.queryStringParameters = query;
  if (body.length > 0) {
    event.body = textual ? body.toString('utf8') : body.toString('base64');
    event.isBase64Encoded = !textual;
  }
  return event;
}

function writeResult(res: ServerResponse, result: APIGatewayProxyResultV2): void {
  if (typeof result === 'string') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(result);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) headers[k.toLowerCase()] = String(v);
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  res.writeHead(result.statusCode ?? 200, headers);
  const body = result.body ?? '';
  res.end(result.isBase64Encoded ? Buffer.from(body, 'base64') : body);
}
