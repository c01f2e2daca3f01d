import type { APIGatewayProxyEvent, APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod';
import { parseFormBody, type FormBody } from './formBody';

/** What the page handlers need from an API Gateway event. */
export interface WebRequest {
  readonly method: string;
  /** The path without the stage or query, e.g. `/revoke`. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** Header lookup, case-insensitive; `undefined` when absent. */
  header(name: string): string | undefined;
  /** Cookie lookup by exact name (HTTP API's `cookies`, or the `Cookie` header); `undefined` when absent. */
  cookie(name: string): string | undefined;
  /** The client's address as API Gateway saw it; `undefined` when the event carries none. */
  readonly sourceIp: string | undefined;
  readonly form: FormBody;
}

const headersSchema = z.record(z.string(), z.string().nullish()).nullish();

/** HTTP API and function URL events (payload format 2.0): `npm start` and the tests. */
const v2Schema = z.looseObject({
  version: z.literal('2.0').optional(),
  rawPath: z.string(),
  rawQueryString: z.string().default(''),
  headers: headersSchema,
  body: z.string().nullish(),
  isBase64Encoded: z.boolean().default(false),
  cookies: z.array(z.string()).nullish(),
  requestContext: z.looseObject({ http: z.looseObject({ method: z.string(), sourceIp: z.string().optional() }) }),
});

/** REST API Lambda proxy events (payload format 1.0): the deployed link endpoint. */
const v1Schema = z.looseObject({
  /** The resource the request matched (`/unsubscribe`): never the stage or a custom domain's base path. */
  resource: z.string().optional(),
  path: z.string(),
  httpMethod: z.string(),
  headers: headersSchema,
  multiValueQueryStringParameters: z.record(z.string(), z.array(z.string()).nullish()).nullish(),
  queryStringParameters: z.record(z.string(), z.string().nullish()).nullish(),
  pathParameters: z.record(z.string(), z.string().nullish()).nullish(),
  body: z.string().nullish(),
  isBase64Encoded: z.boolean().nullish(),
  requestContext: z.looseObject({ identity: z.looseObject({ sourceIp: z.string().nullish() }).nullish() }).nullish(),
});

/** Outcome of reading an event: a request, or why it is not one the pages can answer. */
export type ParsedWebRequest = { kind: 'request'; request: WebRequest } | { kind: 'malformed'; reason: string };

/**
 * Reads an API Gateway event with zod, never throwing: an HTTP API / function URL event (payload
 * 2.0) or a REST API proxy event (payload 1.0, whose query arrives decoded and is re-encoded here).
 * A path or query with a malformed percent-escape is `malformed` (every page answers it 400).
 */
export function toWebRequest(event: APIGatewayProxyEventV2 | APIGatewayProxyEvent | unknown): ParsedWebRequest {
  const v2 = v2Schema.safeParse(event);
  if (v2.success) {
    const e = v2.data;
    if (!decodes(e.rawPath) || !decodes(e.rawQueryString)) return MALFORMED_ESCAPE;
    return request(e.requestContext.http.method, e.rawPath, new URLSearchParams(e.rawQueryString), e.headers, e.body, e.isBase64Encoded, {
      cookies: e.cookies ?? [],
      sourceIp: e.requestContext.http.sourceIp,
    });
  }
  const v1 = v1Schema.safeParse(event);
  if (v1.success) {
    const e = v1.data;
    const query = new URLSearchParams();
    if (e.multiValueQueryStringParameters) {
      for (const [name, values] of Object.entries(e.multiValueQueryStringParameters)) for (const value of values ?? []) query.append(name, value);
    } else {
      for (const [name, value] of Object.entries(e.queryStringParameters ?? {})) if (value != null) query.append(name, value);
    }
    // A greedy resource (`/desk/{proxy+}`) names the rest of the path in its parameter.
    const proxy = e.pathParameters?.['proxy'];
    const path = e.resource?.includes('{proxy+}') && proxy != null ? e.resource.replace('{proxy+}', proxy) : (e.resource ?? e.path);
    if (!decodes(path)) return MALFORMED_ESCAPE;
    return request(e.httpMethod, path, query, e.headers, e.body, e.isBase64Encoded ?? false, {
      cookies: [],
      sourceIp: e.requestContext?.identity?.sourceIp ?? undefined,
    });
  }
  return { kind: 'malformed', reason: 'not an API Gateway proxy event (payload 1.0 or 2.0)' };
}

/** A path or query with a `%` not followed by two hex digits, or escapes that are not UTF-8: no page can read it. */
const MALFORMED_ESCAPE: ParsedWebRequest = { kind: 'malformed', reason: 'the address has a malformed %-escape' };

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

function request(
  method: string,
  path: string,
  query: URLSearchParams,
  rawHeaders: Record<string, string | null | undefined> | null | undefined,
  body: string | null | undefined,
  isBase64Encoded: boolean,
  client: { readonly cookies: readonly string[]; readonly sourceIp: string | undefined },
): ParsedWebRequest {
  const headers = new Map<string, string>();
  for (const [name, value] of Object.entries(rawHeaders ?? {})) if (value != null) headers.set(name.toLowerCase(), value);
  const cookies = parseCookies([...client.cookies, ...(headers.get('cookie')?.split(';') ?? [])]);
  return {
    kind: 'request',
    request: {
      method: method.toUpperCase(),
      path,
      query,
      header: (name) => headers.get(name.toLowerCase()),
      cookie: (name) => cookies.get(name),
      sourceIp: client.sourceIp,
      form: parseFormBody(headers.get('content-type'), body ?? undefined, isBase64Encoded),
    },
  };
}

/** `name=value` pairs (the first of a repeated name wins, as browsers send the most specific first). */
function parseCookies(pairs: readonly string[]): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const pair of pairs) {
    const split = pair.indexOf('=');
    if (split <= 0) continue;
    const name = pair.slice(0, split).trim();
    if (!cookies.has(name)) cookies.set(name, pair.slice(split + 1).trim());
  }
  return cookies;
}
