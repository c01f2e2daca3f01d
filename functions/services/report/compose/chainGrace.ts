import { setTimeout as sleepTimer } from 'node:timers/promises';
import { ChainError } from '../../../chain/errors';
import { currentDeadline } from '../../../shared/deadline';
import { RetryLaterError } from '../../../shared/retryLaterError';

/** How long after its due time a report whose chain reads fail is built from stored data, by default. */
export const DEFAULT_STORED_DATA_GRACE_MS = 60_000;

/** Chain reads are tried again this often during the grace. */
export const CHAIN_RETRY_EVERY_MS = 15_000;

/** When a report gives the chain up. */
export interface ChainGrace {
  /** From this instant a chain failure builds the report from stored data; `null`: never (forced and CLI reports wait for the chain). */
  readonly fallbackFrom: number | null;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

/** The chain grace of a report due at `dueAt` (a queued job's); without `dueAt` (forced, CLI) the report never falls back to stored data. */
export function chainGraceOf(
  deps: { readonly now: () => number; readonly sleep?: (ms: number) => Promise<void>; readonly storedDataGraceMs?: number },
  dueAt: number | undefined,
): ChainGrace {
  return {
    fallbackFrom: dueAt === undefined ? null : dueAt + (deps.storedDataGraceMs ?? DEFAULT_STORED_DATA_GRACE_MS),
    now: deps.now,
    sleep: deps.sleep ?? ((ms) => sleepTimer(ms).then(() => undefined)),
  };
}

/**
 * Reads a report's figures from the chain (`read`), trying again every `CHAIN_RETRY_EVERY_MS`
 * while the chain fails, until `grace.fallbackFrom`; from then on a chain failure builds them from
 * stored data (`stored`, told when the chain was given up). Any other failure (the store) throws
 * as it is. When the invocation's deadline would pass before the next try, a `RetryLaterError`
 * brings the job back at the end of the grace.
 */
export async function withChainGrace<T>(grace: ChainGrace, read: () => Promise<T>, stored: (chainFailedAt: number) => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof ChainError) || grace.fallbackFrom === null) throw error;
      const now = grace.now();
      if (now >= grace.fallbackFrom) return stored(now);
      const wait = Math.min(CHAIN_RETRY_EVERY_MS, grace.fallbackFrom - now);
      const deadline = currentDeadline();
      if (deadline !== undefined && Date.now() + wait >= deadline) {
        throw new RetryLaterError('the chain did not answer; the report is tried again', { cause: error, retryAfterMs: grace.fallbackFrom - now });
      }
      await grace.sleep(wait);
    }
  }
}
