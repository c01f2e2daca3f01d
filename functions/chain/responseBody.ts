import type * as z from 'zod';
import { ChainHttpError, ChainRejectedError, ChainResponseShapeError } from './errors';
import { formatPath } from './formatPath';
import type { HttpResponse } from './httpTransport';

function isSuccess(status: number): boolean {
  return status >= 200 && status <= 299;
}

/** Parses the body as JSON; a malformed or truncated body throws `ChainResponseShapeError` at the root. */
export function parseJsonBody(response: HttpResponse): unknown {
  try {
    return JSON.parse(response.text);
  } catch (cause) {
    const problem = response.text.trim() === '' ? 'empty body' : `not valid JSON (${(cause as Error).message})`;
    throw new ChainResponseShapeError({ path: '', problem, request: response.request, cause });
  }
}

/** Validates `value` with `schema`; the first issue becomes a `ChainResponseShapeError` with its path. */
export function parseShape<S extends z.ZodType>(schema: S, value: unknown, request: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = formatPath(issue?.path ?? []);
  throw new ChainResponseShapeError({ path, problem: issue?.message ?? 'invalid', request, cause: parsed.error });
}

/** A read route's body: non-2xx -> `ChainHttpError` with the text body; 2xx -> JSON validated by `schema`. */
export function readJson<S extends z.ZodType>(response: HttpResponse, schema: S): z.output<S> {
  if (!isSuccess(response.status)) {
    throw new ChainHttpError({ request: response.request, status: response.status, body: response.text, attempts: response.attempts });
  }
  return parseShape(schema, parseJsonBody(response), response.request);
}

function rejection(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !Object.hasOwn(body, 'Err')) return undefined;
  const reason = (body as { Err: unknown }).Err;
  return typeof reason === 'string' ? reason : JSON.stringify(reason);
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * A write route's body. `{"Err": msg}` with any status -> `ChainRejectedError`; any other non-2xx ->
 * `ChainHttpError`; a 2xx `text/plain` body that is not JSON is taken as a bare string (`Ok`);
 * otherwise the parsed JSON (malformed -> `ChainResponseShapeError`).
 */
export function readWriteBody(response: HttpResponse): unknown {
  const json = tryJson(response.text);
  const reason = json.ok ? rejection(json.value) : undefined;
  if (reason !== undefined) {
    throw new ChainRejectedError({ request: response.request, reason, status: response.status });
  }
  if (!isSuccess(response.status)) {
    throw new ChainHttpError({ request: response.request, status: response.status, body: response.text, attempts: response.attempts });
  }
  if (!json.ok && /^text\/plain\b/i.test(response.contentType) && response.text.trim() !== '') return response.text.trim();
  return json.ok ? json.value : parseJsonBody(response);
}
