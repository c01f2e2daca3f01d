import { HANDLER_CATALOG } from '../../config/handlerCatalog';
import { workQueueSettings, type WorkQueueSettings } from '../../queue/workQueueSettings';

/**
 * Published events per `channel-fanout` invocation, worked at once. A fan-out waits little (the
 * account and channel list, then the controls, delegates and curve: two rounds of item reads; one
 * batch of channel jobs) and draws a drawdown's chart when a Telegram or Discord channel takes it:
 * about 60 ms of CPU on one core here, so ~100 ms at the function's 1024 MB (~0.6 vCPU). Charts of
 * one instance are drawn one after the other whatever the batch, so a small batch keeps the last
 * event of a batch from waiting behind many charts: 5 is about half a second of drawing.
 */
export const FANOUT_BATCH_SIZE = 5;

/**
 * `channel-fanout` instances at once (the fan-out queue event source's `maxConcurrency`). The work
 * is CPU, not waiting, so what clears a poll's alerts is instances, not records in flight: 1,000
 * drawdowns raised in one poll are ~100 s of drawing, which 20 instances clear in ~5 s. Each
 * instance's jobs go to the channel queue, whose worker paces the sends per destination.
 */
export const FANOUT_CONCURRENCY = 20;

/**
 * The fan-out queue's redelivery, read by the CDK fan-out queue and the local one (`npm start`,
 * `serve`, `collect`): an event whose reads or queueing failed comes back after six times the
 * function's timeout, five times, then waits in the dead-letter queue. A redelivered event queues
 * its jobs again; the per-(event, channel) delivery ids send nothing twice.
 */
export const FANOUT_QUEUE: WorkQueueSettings = workQueueSettings(HANDLER_CATALOG['channel-fanout'].sizing.timeoutSeconds);
