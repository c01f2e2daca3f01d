import { fullJitterDelay } from '../shared/backoff';
import { parseRetryAfter } from './retryAfter';
import { ChainNetworkError, ChainTimeoutError } from './errors';
import { networkErrorCode, requestNeverSent } from './networkFailure';
import { redactUrl, redactEchoes } from './redactUrl';
import { currentDeadline } from '../shared/deadline';
import type { RateLimiter, Sleep } from '../shared/rateLimiter';

/** The logging the chain layer does: one warning per retry. Powertools' `Logger` fits. */
export interface ChainLogger {
  warn(message: string, attributes: Record<string, unknown>): void;
}

/**
 * How a request may be retried.
 *
 * - `idempotent` (every GET): retried on network errors, timeouts, 429 and 5xx.
 * - `unprocessed-only` (`POST /transaction`, `POST /batch_transactions`): retried only when the chain
 *   cannot have executed the transaction: the connection was never established (refused, DNS, no route,
 *   connect timeout), a 429 (rate limiting happens before execution), or a 503 carrying `Retry-After`
 *   (the node asking us to come back, i.e. not accepting work). A timeout, a reset connection, a 500,
 *   502 or 504, or a 503 without `Retry-After` may come after the node executed the transaction:
 *   re-sending the same signed transaction would then be rejected as a stale nonce (`{"Err": ...}`),
 *   turning a success into an apparent failure, so those errors are surfaced for the caller to check
 *   the chain state (`getAccountNonce`, `getDelegateTraders`) instead.
 */
export type RetryMode = 'idempotent' | 'unprocessed-only';

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: URL;
  authorization?: string | undefined;
  body?: string;
  retry: RetryMode;
  signal?: AbortSignal | undefined;
  /**
   * Epoch ms (on `now`) after which nothing is sent or waited for: no retry or `Retry-After` wait
   * that would pass it, and each attempt's timeout capped by it. Default: the deadline of the
   * work in progress (`withDeadline`), if any.
   */
  deadline?: number | undefined;
}

/** The final response of a request, after any retries; the body is read in full. */
export interface HttpResponse {
  status: number;
  contentType: string;
  text: string;
  attempts: number;
  /** `METHOD url` with secrets redacted, for messages. */
  request: string;
}

export interface HttpTransportOptions {
  fetch: typeof globalThis.fetch;
  sleep: Sleep;
  /** Uniform random in [0, 1), for jitter. */
  random: () => number;
  /** Wall-clock ms, to read `Retry-After` dates. */
  now: () => number;
  limiter: RateLimiter;
  timeoutMs: number;
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Cap on a wait asked for by `Retry-After`. */
  maxRetryAfterMs: number;
  logger?: ChainLogger | undefined;
}

/** Sends one request through the rate limiter, with timeout and retries; resolves with the final response. */
export type HttpTransport = (request: HttpRequest) => Promise<HttpResponse>;

type Attempt =
  | { kind: 'response'; status: number; contentType: string; retryAfter: string | null; text: string }
  | { kind: 'timeout'; cause: unknown }
  | { kind: 'network'; code: string | undefined; cause: unknown };

const TIMEOUT = Symbol('chain request timeout');

function retryableStatus(status: number, retryAfter: string | null, mode: RetryMode): boolean {
  if (status === 429) return true;
  if (mode === 'idempotent') return status >= 500 && status <= 599;
  return status === 503 && retryAfter !== null;
}

function retryableFailure(attempt: Attempt, mode: RetryMode): boolean {
  if (mode === 'idempotent') return attempt.kind !== 'response';
  return attempt.kind === 'network' && requestNeverSent(attempt.code);
}

/** Builds the transport the chain client sends every request through. */
export function createHttpTransport(options: HttpTransportOptions): HttpTransport {
  async function once(request: HttpRequest, timeoutMs: number): Promise<Attempt> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(TIMEOUT), timeoutMs);
    const external = request.signal;
    const forward = (): void => controller.abort(external?.reason);
    external?.addEventListener('abort', forward, { once: true });
    const headers: Record<string, string> = { accept: 'application/json, text/plain;q=0.9' };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (request.authorization) headers.authorization = request.authorization;
    try {
      const res = await options.fetch(request.url, {
        method: request.method,
        headers,
        signal: controller.signal,
        ...(request.body === undefined ? {} : { body: request.body }),
      });
      const text = await res.text();
      return {
        kind: 'response',
        status: res.status,
        contentType: res.headers.get('content-type') ?? '',
        retryAfter: res.headers.get('retry-after'),
        text,
      };
    } catch (cause) {
      if (external?.aborted) throw external.reason;
      if (controller.signal.reason === TIMEOUT) return { kind: 'timeout', cause };
      return { kind: 'network', code: networkErrorCode(cause), cause };
    } finally {
      clearTimeout(timer);
      external?.removeEventListener('abort', forward);
    }
  }

  return async (request) => {
    const label = `${request.method} ${redactUrl(request.url)}`;
    const deadline = request.deadline ?? currentDeadline();
    const left = (): number => (deadline === undefined ? Number.POSITIVE_INFINITY : deadline - options.now());
    for (let attempt = 1; ; attempt += 1) {
      await options.limiter.take(request.signal);
      const timeoutMs = Math.max(0, Math.min(options.timeoutMs, left()));
      if (timeoutMs <= 0) throw new ChainTimeoutError({ request: label, timeoutMs: 0, attempts: attempt - 1, deadline: true });
      const result = await once(request, timeoutMs);
      const canRetry = attempt <= options.maxRetries;
      const retry =
        canRetry && (result.kind === 'response' ? retryableStatus(result.status, result.retryAfter, request.retry) : retryableFailure(result, request.retry));
      if (retry) {
        const asked = result.kind === 'response' ? parseRetryAfter(result.retryAfter, options.now(), options.maxRetryAfterMs) : undefined;
        const waitMs = asked ?? fullJitterDelay(attempt - 1, options);
        if (waitMs >= left()) return settle(result, attempt, label, timeoutMs, request.url);
        options.logger?.warn('retrying chain request', {
          request: label,
          attempt,
          reason: result.kind === 'response' ? `HTTP ${result.status}` : result.kind === 'network' ? (result.code ?? 'network') : 'timeout',
          waitMs,
        });
        await options.sleep(waitMs, request.signal);
        continue;
      }
      return settle(result, attempt, label, timeoutMs, request.url);
    }
  };

  /** The final answer of a request: its response, or the error of its last attempt. */
  function settle(result: Attempt, attempts: number, label: string, timeoutMs: number, url: string | URL): HttpResponse {
    switch (result.kind) {
      case 'response':
        // An error body may echo the request path or query, and with it a key: it ends up in error messages.
        return {
          status: result.status,
          contentType: result.contentType,
          text: result.status >= 400 ? redactEchoes(result.text, url) : result.text,
          attempts,
          request: label,
        };
      case 'timeout':
        throw new ChainTimeoutError({ request: label, timeoutMs, attempts, cause: result.cause, deadline: timeoutMs < options.timeoutMs });
      case 'network':
        throw new ChainNetworkError({ request: label, code: result.code, attempts, cause: result.cause });
    }
  }
}
