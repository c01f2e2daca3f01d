import { SentinelError, type SentinelErrorOptions } from '../shared/sentinelError';

/**
 * The chain layer's error family. Every class keeps the original `cause`, carries a one-line
 * `shortMessage` and optional `details`, and never embeds a secret or a URL with credentials
 * (URLs in messages go through `redactUrl` first).
 */

const MAX_BODY_CHARS = 500;

/** Shortens a response body for an error message: one line, at most 500 characters. */
export function truncateBody(body: string, max = MAX_BODY_CHARS): string {
  const oneLine = body.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max)}… (${oneLine.length - max} more characters)` : oneLine;
}

/** Base class of every error the chain layer throws. `message` is `shortMessage` plus `details`, on one line. */
export abstract class ChainError extends SentinelError {
  override readonly name: string = 'ChainError';

  protected constructor(shortMessage: string, options: SentinelErrorOptions = {}) {
    super(shortMessage, options);
  }
}

/** A non-2xx HTTP response that is not a chain rejection. `body` is the (text/plain) body, truncated. */
export class ChainHttpError extends ChainError {
  override readonly name = 'ChainHttpError';
  readonly status: number;
  readonly body: string;
  readonly request: string;

  constructor(input: { request: string; status: number; body: string; attempts: number; cause?: unknown }) {
    const body = truncateBody(input.body);
    const tries = input.attempts > 1 ? ` after ${input.attempts} attempts` : '';
    super(`${input.request} failed with HTTP ${input.status}${tries}`, {
      details: body || '(empty body)',
      cause: input.cause,
      retryable: input.status === 429 || input.status >= 500,
    });
    this.status = input.status;
    this.body = body;
    this.request = input.request;
  }
}

/** A response that is not valid JSON or does not have the documented shape. `path` names the failing field (`summary.winRate`), `''` being the whole body. */
export class ChainResponseShapeError extends ChainError {
  override readonly name = 'ChainResponseShapeError';
  readonly path: string;

  constructor(input: { path: string; problem: string; request?: string; cause?: unknown }) {
    const where = input.request ? `unexpected response from ${input.request}` : 'unexpected value';
    super(`${where} at ${input.path === '' ? '(body)' : input.path}`, { details: input.problem, cause: input.cause });
    this.path = input.path;
  }
}

/** The request (headers and body) did not complete within the per-request timeout, or within the invocation's deadline. */
export class ChainTimeoutError extends ChainError {
  override readonly name = 'ChainTimeoutError';
  readonly timeoutMs: number;

  /** True when the invocation's deadline, not the per-request timeout, cut the request short (or kept it from being sent). */
  readonly deadline: boolean;

  constructor(input: { request: string; timeoutMs: number; attempts: number; cause?: unknown; deadline?: boolean }) {
    const tries = input.attempts > 1 ? ` (${input.attempts} attempts)` : '';
    const what = input.deadline ? `stopped at the invocation's deadline after ${input.timeoutMs} ms` : `timed out after ${input.timeoutMs} ms`;
    super(`${input.request} ${what}${tries}`, { cause: input.cause, retryable: true });
    this.timeoutMs = input.timeoutMs;
    this.deadline = input.deadline ?? false;
  }
}

/** The connection failed (refused, reset, DNS, body cut off). `code` is the system/undici code when known. */
export class ChainNetworkError extends ChainError {
  override readonly name = 'ChainNetworkError';
  readonly code: string | undefined;

  constructor(input: { request: string; code: string | undefined; attempts: number; cause?: unknown }) {
    const tries = input.attempts > 1 ? ` after ${input.attempts} attempts` : '';
    super(`${input.request} failed${tries}`, { details: input.code ?? 'network error', cause: input.cause, retryable: true });
    this.code = input.code;
  }
}

/** The chain answered `{"Err": message}` (with any HTTP status): the transaction was rejected. */
export class ChainRejectedError extends ChainError {
  override readonly name = 'ChainRejectedError';
  readonly reason: string;
  readonly status: number;

  constructor(input: { request: string; reason: string; status: number; cause?: unknown }) {
    super(`${input.request} was rejected by the chain (HTTP ${input.status})`, { details: truncateBody(input.reason), cause: input.cause });
    this.reason = input.reason;
    this.status = input.status;
  }
}

/** Invalid input detected before anything was sent. `parameter` names it (`interval`, `instruction.DelegateManager.name`). */
export class ChainRequestError extends ChainError {
  override readonly name = 'ChainRequestError';
  readonly parameter: string;

  constructor(parameter: string, problem: string, options: { cause?: unknown } = {}) {
    super(`invalid ${parameter}`, { details: problem, cause: options.cause });
    this.parameter = parameter;
  }
}

/** Why a signer could not be built or could not sign. */
export type SignerErrorCode =
  'bad-reference' | 'missing-key' | 'invalid-key' | 'kms-unavailable' | 'kms-bad-response' | 'kms-signature-mismatch' | 'bad-signature';

/** A signer could not be resolved or produced no valid signature. Never contains key material. */
export class SignerError extends ChainError {
  override readonly name = 'SignerError';
  readonly code: SignerErrorCode;

  constructor(code: SignerErrorCode, shortMessage: string, options: { details?: string; cause?: unknown } = {}) {
    super(shortMessage, { ...options, retryable: code === 'kms-unavailable' });
    this.code = code;
  }
}
