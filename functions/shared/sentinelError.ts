/** What every project error may carry besides its short message. */
export interface SentinelErrorOptions {
  /** One line of detail after the short message (whitespace is collapsed). */
  readonly details?: string | undefined;
  readonly cause?: unknown;
  /** True when trying the same thing again later may succeed (throttling, outage, timeout). */
  readonly retryable?: boolean;
}

/**
 * Base class of every error the project throws on purpose. `message` is `shortMessage` plus
 * `details` on one line; `cause` is kept; `retryable` says whether the same call may succeed
 * later. Messages never embed secrets; `describeError` redacts what may still slip through.
 */
export abstract class SentinelError extends Error {
  override readonly name: string = 'SentinelError';
  readonly shortMessage: string;
  readonly details: string | undefined;
  readonly retryable: boolean;

  protected constructor(shortMessage: string, options: SentinelErrorOptions = {}) {
    const details = options.details === undefined ? undefined : options.details.replace(/\s+/g, ' ').trim();
    super(details ? `${shortMessage}: ${details}` : shortMessage, options.cause === undefined ? {} : { cause: options.cause });
    this.shortMessage = shortMessage;
    this.details = details;
    this.retryable = options.retryable ?? false;
  }

  /**
   * Follows `cause` from this error down: the first error in the chain (this one included) for
   * which `predicate` holds, or `null`; without a predicate, the innermost cause. Cycles stop the walk.
   */
  walk(): unknown;
  walk(predicate: (error: unknown) => boolean): unknown;
  walk(predicate?: (error: unknown) => boolean): unknown {
    return walkCauses(this, predicate);
  }
}

/** `SentinelError.walk` for any thrown value (an SDK error may wrap ours, or ours an SDK error). */
export function walkCauses(error: unknown, predicate?: (error: unknown) => boolean): unknown {
  const seen = new Set<unknown>([error]);
  let current: unknown = error;
  for (;;) {
    if (predicate?.(current)) return current;
    const next = current instanceof Error ? current.cause : undefined;
    if (next === undefined || seen.has(next)) return predicate ? null : current;
    seen.add(next);
    current = next;
  }
}
