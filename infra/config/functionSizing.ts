import { Duration } from 'aws-cdk-lib';
import { REPORT_WORKER_TIMEOUT_SECONDS } from '../../functions/services/report/schedule/reportWorkers';
import type { HandlerName } from '../bundling/handlerCatalog';

/** Timeout and memory of one Lambda. */
export interface FunctionSizing {
  readonly timeout: Duration;
  readonly memorySize: number;
}

/**
 * Sizing per handler. Queue visibility timeouts are derived from the consumers' timeouts here, and
 * `revoke-page` must answer within API Gateway's 30 s integration limit while it waits for
 * `sign-revocation`.
 */
export const FUNCTION_SIZING: Readonly<Record<HandlerName, FunctionSizing>> = {
  dispatch: { timeout: Duration.seconds(60), memorySize: 512 },
  // A batch of up to 10 accounts (or delegate-watch jobs of up to 100) at the instance's CHAIN_RPS,
  // first polls backfilling in chunks. Its time is the token bucket, not CPU, and Lambda bills the
  // wait by memory: at 128 MB (~1/14 vCPU) a steady-state chain request's CPU (< 5 ms measured, ~70 ms
  // there) still fits in the bucket's 118 ms between requests at 8.5 rps, and the heaviest job, a
  // 7-day backfill at 1m, peaked at 78 MB resident (`bench/collectMemory.ts`).
  collect: { timeout: Duration.seconds(120), memorySize: 128 },
  // Rendering (Handlebars, inlined CSS, chart PNG) is CPU-bound: more memory buys CPU.
  notify: { timeout: Duration.seconds(60), memorySize: 1024 },
  'report-dispatch': { timeout: Duration.seconds(60), memorySize: 512 },
  // The report worker: a batch of reports rendered in parallel (1 vCPU), sent at its share of the
  // mail rate, throttled sends backed off for up to ~30 s.
  // Its timeout is shared with the local report pipeline: the report queue's retries derive from it.
  'daily-report': { timeout: Duration.seconds(REPORT_WORKER_TIMEOUT_SECONDS), memorySize: 1769 },
  'revoke-page': { timeout: Duration.seconds(29), memorySize: 512 },
  'preferences-page': { timeout: Duration.seconds(10), memorySize: 512 },
  'sign-revocation': { timeout: Duration.seconds(25), memorySize: 512 },
  'ses-events': { timeout: Duration.seconds(30), memorySize: 256 },
};
