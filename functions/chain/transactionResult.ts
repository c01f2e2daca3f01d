import { ChainResponseShapeError } from './errors';
import type { TransactionResult } from './ports';

/**
 * Reads an accepted transaction's body: a bare string (`"Ok"`) -> `{ kind: 'string' }`; an externally
 * tagged enum (`{"RemoveDelegateManager": {...}}`) -> `{ kind: 'tagged', tag, value }`.
 * Rejections (`{"Err": ...}`) are handled before this, by `readWriteBody`.
 */
export function toTransactionResult(body: unknown, request: string): TransactionResult {
  if (typeof body === 'string') return { kind: 'string', value: body };
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const entries = Object.entries(body);
    const [first] = entries;
    if (entries.length === 1 && first) return { kind: 'tagged', tag: first[0], value: first[1] };
    throw new ChainResponseShapeError({
      path: '',
      problem: `expected an object with exactly one key, got ${entries.length} keys`,
      request,
    });
  }
  throw new ChainResponseShapeError({
    path: '',
    problem: `expected a string or a tagged object, got ${Array.isArray(body) ? 'an array' : body === null ? 'null' : typeof body}`,
    request,
  });
}
