import { SentinelError } from './sentinelError';

/**
 * Who reads the description: operators' logs; the operator at their own terminal (CLI output:
 * the addresses they typed stay readable); or anyone (pages, emails, results).
 */
export type ErrorAudience = 'log' | 'operator' | 'public';

const MAX_CHARS = 500;
const MAX_CAUSES = 3;
const EMAIL = /[^\s<>"',;:()#]+@[^\s<>"',;:()#]+/g;
const URL_PATH = /\b([a-z][a-z0-9+.-]*:\/\/)(?:[^\s/@'"<>]*@)?([^\s/?#'"<>]+)[^\s'"<>)]*/gi;
const HEX_SECRET = /\b(?:0x)?[0-9a-fA-F]{64,}\b/g;
const SECRET_ASSIGNMENT = /\b(secret|password|passwd|token|api[-_]?key|private[-_]?key)(\s*[=:]\s*)[^\s,;&)]+/gi;

/**
 * Replaces what must not reach a log line or a user: email addresses (`<address>`), everything
 * of a URL after its host (`https://host/…`, user info dropped), 64+ hex digit strings (private
 * keys, secrets: `<hex>`), and `secret=…`-style values.
 */
export function redact(text: string, options: { readonly keepEmails?: boolean } = {}): string {
  const withoutPaths = text.replace(URL_PATH, (_match, scheme: string, host: string) => `${scheme}${host}/…`);
  return (options.keepEmails ? withoutPaths : withoutPaths.replace(EMAIL, '<address>'))
    .replace(HEX_SECRET, '<hex>')
    .replace(SECRET_ASSIGNMENT, (_match, name: string, separator: string) => `${name}${separator}<redacted>`);
}

/**
 * One redacted line describing `error`, at most 500 characters.
 * - `log`: `Name: message`, followed by the causes (`← Name: message`, up to three).
 * - `public`: the message only (a user needs what went wrong, not the class); non-errors become
 *   `unexpected error`.
 * - `operator`: as `public`, but email addresses are kept (the CLI's user typed them).
 */
export function describeError(error: unknown, options: { readonly audience: ErrorAudience }): string {
  if (!(error instanceof Error)) return options.audience === 'log' && typeof error === 'string' ? cut(redact(error)) : 'unexpected error';
  if (options.audience !== 'log') return cut(redact(oneLine(error.message) || error.name, { keepEmails: options.audience === 'operator' }));
  const parts = [named(error)];
  let cause: unknown = error.cause;
  let previous = error.message;
  for (let depth = 0; cause instanceof Error && depth < MAX_CAUSES; depth++) {
    // A wrapper that already quotes its cause's message (`op: Name: message`) is not repeated.
    if (!previous.includes(cause.message)) parts.push(named(cause));
    previous = cause.message;
    cause = cause.cause;
  }
  return cut(redact(parts.join(' ← ')));
}

/** True when `error` says the same call may succeed later (a `SentinelError` marked retryable). */
export function isRetryable(error: unknown): boolean {
  return error instanceof SentinelError && error.retryable;
}

function named(error: Error): string {
  const message = oneLine(error.message);
  return message ? `${error.name}: ${message}` : error.name;
}

function oneLine(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('; ');
}

function cut(text: string): string {
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
}
