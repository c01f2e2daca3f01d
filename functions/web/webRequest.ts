import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod';
import { parseFormBody, type FormBody } from './formBody';

/** What the page handlers need from an HTTP API (payload v2) event. */
export interface WebRequest {
  readonly method: string;
  /** The path without the stage or query, e.g. `/revoke`. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** Header lookup, case-insensitive; `undefined` when absent. */
  header(name: string): string | undefined;
  readonly form: FormBody;
}

const eventSchema = z.looseObject({
  rawPath: z.string(),
  rawQueryString: z.string().default(''),
  headers: z.record(z.string(), z.string().optional()).default({}),
  body: z.string().optional(),
  isBase64Encoded: z.boolean().default(false),
  requestContext: z.looseObject({ http: z.looseObject({ method: z.string() }) }),
});

/** Outcome of reading an event: a request, or why it is not one the pages can answer. */
export type ParsedWebRequest = { kind: 'request'; request: WebRequest } | { kind: 'malformed'; reason: string };

/** Reads an API Gateway HTTP API / function URL event (payload format 2.0) with zod; never throws. */
export function toWebRequest(event: APIGatewayProxyEventV2 | unknown): ParsedWebRequest {
  const parsed = eventSchema.safeParse(event);
  if (!parsed.success) return { kind: 'malformed', reason: 'not an HTTP API (payload 2.0) event' };
  const e = parsed.data;
  const headers = new Map<string, string>();
  for (const [name, value] of Object.entries(e.headers)) if (value !== undefined) headers.set(name.toLowerCase(), value);
  return {
    kind: 'request',
    request: {
      method: e.requestContext.http.method.toUpperCase(),
      path: e.rawPath,
      query: new URLSearchParams(e.rawQueryString),
      header: (name) => headers.get(name.toLowerCase()),
      form: parseFormBody(headers.get('content-type'), e.body, e.isBase64Encoded),
    },
  };
}
