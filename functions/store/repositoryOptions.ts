import type { BatchWriteOptions } from './batchWrite';

/** Options every repository accepts besides its client and table prefix. */
export interface RepositoryOptions {
  /** Clock (epoch ms) for TTL filtering and the timestamps a repository sets itself; default `Date.now`. */
  readonly now?: () => number;
  /** Retry and concurrency policy of batch writes. */
  readonly batch?: BatchWriteOptions;
}
