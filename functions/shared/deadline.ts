import { AsyncLocalStorage } from 'node:async_hooks';
import { SentinelError } from './sentinelError';

const current = new AsyncLocalStorage<number>();

/**
 * Runs `work` with `at` (epoch ms) as the deadline of everything it awaits: the chain client
 * neither retries nor waits past it and caps each request's timeout by it. `undefined` runs
 * without one (the CLI, tests).
 */
export function withDeadline<T>(at: number | undefined, work: () => Promise<T>): Promise<T> {
  return at === undefined ? work() : current.run(at, work);
}

/** The deadline of the work in progress, if any (see `withDeadline`). */
export function currentDeadline(): number | undefined {
  return current.getStore();
}

/** Work was not started, or was cut short, because the invocation's deadline came; it is retried later. */
export class DeadlineReachedError extends SentinelError {
  override readonly name = 'DeadlineReachedError';
  constructor(what: string) {
    super(`${what}: the invocation's deadline was reached`, { retryable: true });
  }
}
