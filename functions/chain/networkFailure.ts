/** Error codes meaning the connection was never established, so the server cannot have seen the request. */
const NEVER_SENT_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function ownCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The most specific system or undici error code in a fetch failure: `fetch` throws
 * `TypeError('fetch failed')` whose `cause` (or the `errors` of an AggregateError cause) holds it.
 */
export function networkErrorCode(err: unknown): string | undefined {
  return codeAt(err, 0);
}

function codeAt(err: unknown, depth: number): string | undefined {
  if (typeof err !== 'object' || err === null || depth > 5) return undefined;
  const nested = (err as { cause?: unknown }).cause;
  const fromCause = codeAt(nested, depth + 1);
  if (fromCause) return fromCause;
  const inner = (err as { errors?: unknown }).errors;
  if (Array.isArray(inner)) {
    for (const e of inner) {
      const code = codeAt(e, depth + 1);
      if (code) return code;
    }
  }
  return ownCode(err);
}

/** True when the failure happened before the request left this machine (refused, DNS, no route). */
export function requestNeverSent(code: string | undefined): boolean {
  return code !== undefined && NEVER_SENT_CODES.has(code);
}
