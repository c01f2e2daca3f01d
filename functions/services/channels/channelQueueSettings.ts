import { HANDLER_CATALOG } from '../../config/handlerCatalog';
import { workQueueSettings, type WorkQueueSettings } from '../../queue/workQueueSettings';

/** Channel jobs per channel-worker invocation (worked at once, each waiting on its own destination). */
export const CHANNEL_BATCH_SIZE = 10;

/**
 * Channel-worker instances at once (the channel queue event source's `maxConcurrency`): the
 * instances share each destination's send slots (`SharedDestinationPacer`); a 429 beyond them
 * re-queues the job with the announced wait. One alert was about four jobs (its fan-out, on the
 * fan-out queue since, and one per routed channel), a chat job about 230 ms of waiting on DynamoDB
 * and the destination: 1,000 alerts raised within 12 s were about 500 s of work, which 2 instances
 * (20 jobs at once) took 24 s to clear (`bench:channels`). 10 keep up with the poll.
 */
export const CHANNEL_WORKER_CONCURRENCY = 10;

/**
 * The channel queue's redelivery, read by the CDK channel queue and by the local in-process
 * channel queue (`npm start`, `serve`, `collect`): a job whose store or queue write failed comes
 * back after six times the worker's timeout, five times, then waits in the dead-letter queue.
 * Throttled and paced jobs are not redelivered but re-queued with a delay by the worker itself.
 */
export const CHANNEL_QUEUE: WorkQueueSettings = workQueueSettings(HANDLER_CATALOG['channel-worker'].sizing.timeoutSeconds);
