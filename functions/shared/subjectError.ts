import { SentinelError, type SentinelErrorOptions } from './sentinelError';

/**
 * An error about one named thing (a setting, a queue, a store operation): its short message is
 * the thing's name and `details` says what went wrong with it, so `message` reads
 * `<subject>: <details>`. Keeps `cause`.
 */
export abstract class SubjectError extends SentinelError {
  constructor(
    /** What the error is about, e.g. `ROCKET_NODE_URL`, `accounts.create`. */
    readonly subject: string,
    details: string,
    options: Omit<SentinelErrorOptions, 'details'> = {},
  ) {
    super(subject, { ...options, details });
  }
}
