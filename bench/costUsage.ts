import type { Counters, Log } from '../functions/shared/observability';
import { FUNCTION_SIZING } from '../infra/config/functionSizing';
import type { HandlerName } from '../functions/config/handlerCatalog';

/**
 * Bytes CloudWatch Logs ingests per invocation besides the function's own lines. Lambda's START,
 * END and REPORT lines are system logs at INFO level; every function is deployed with the JSON log
 * format and `systemLogLevel: WARN` (`infra/constructs/SentinelFunction.ts`), so Lambda drops them
 * before CloudWatch: nothing per invocation.
 */
export const PLATFORM_LOG_BYTES_PER_INVOCATION = 0;
/** An EMF document Powertools writes per flush with metrics: its envelope, plus per metric name. */
export const EMF_BYTES = { envelope: 260, perMetric: 70 } as const;
/** What CloudWatch Logs bills per log event on top of its bytes. */
const LOG_EVENT_OVERHEAD = 26;

/** Lines and bytes CloudWatch would ingest for one kind of log line. */
export interface LogTally {
  lines: number;
  bytes: number;
}

/** Everything the cost model counts, as measured in one run. */
export class Usage {
  /** Per function: invocations, billed ms (each rounded up to 1 ms). */
  readonly lambda = new Map<string, { invocations: number; billedMs: number }>();
  /** SQS API requests (send, receive, delete) of the collect queue, each batch of up to 10 one request. */
  sqsRequests = 0;
  /** SQS send requests to the notify queue. */
  notifySqsRequests = 0;
  /** Messages sent to the notify queue (alert events). */
  notifyEvents = 0;
  logBytes = 0;
  /** Log bytes by `<function> <LEVEL> <message>` (and `<function> EMF` for metric documents). */
  readonly logByMessage = new Map<string, LogTally>();
  /** Distinct custom metric names emitted. */
  readonly metricNames = new Set<string>();

  /** Forgets everything counted so far (after the unmeasured first cycle). */
  reset(): void {
    this.lambda.clear();
    this.sqsRequests = 0;
    this.notifySqsRequests = 0;
    this.notifyEvents = 0;
    this.logBytes = 0;
    this.logByMessage.clear();
  }

  invocation(fn: string, ms: number): void {
    const entry = this.lambda.get(fn) ?? { invocations: 0, billedMs: 0 };
    entry.invocations++;
    entry.billedMs += Math.max(1, Math.ceil(ms));
    this.lambda.set(fn, entry);
    this.logBytes += PLATFORM_LOG_BYTES_PER_INVOCATION;
  }

  /** Log bytes of one function's lines (`<function> ...` keys of `logByMessage`). */
  logBytesOf(fn: string): number {
    let bytes = 0;
    for (const [key, tally] of this.logByMessage) if (key.startsWith(`${fn} `)) bytes += tally.bytes;
    return bytes;
  }

  private tally(key: string, bytes: number): void {
    const entry = this.logByMessage.get(key) ?? { lines: 0, bytes: 0 };
    entry.lines++;
    entry.bytes += bytes;
    this.logByMessage.set(key, entry);
    this.logBytes += bytes;
  }

  /**
   * A `Log` writing nothing but counting the bytes of the JSON line Powertools would write at
   * INFO level (debug lines are not written), with its standard keys and the Lambda context keys
   * the handlers add (`addContext`) on every invocation.
   */
  log(fn: HandlerName): Log {
    const line = (level: string, message: string, extra?: Record<string, unknown>) => {
      const json = JSON.stringify({
        level,
        message,
        timestamp: '2026-11-23T10:00:00.000Z',
        service: fn,
        cold_start: false,
        function_arn: `arn:aws:lambda:us-east-1:123456789012:function:sentinel-prod-${fn}`,
        function_memory_size: FUNCTION_SIZING[fn].memorySize,
        function_name: `sentinel-prod-${fn}`,
        function_request_id: '0b9a6f2e-5c1d-4e8f-9a7b-3c2d1e0f4a5b',
        sampling_rate: 0,
        xray_trace_id: '1-6741a2b3-0123456789abcdef01234567',
        ...extra,
      });
      this.tally(`${fn} ${level} ${message}`, Buffer.byteLength(json) + 1 + LOG_EVENT_OVERHEAD);
    };
    return {
      debug: () => undefined,
      info: (m, e) => line('INFO', m, e),
      warn: (m, e) => line('WARN', m, e),
      error: (m, e) => line('ERROR', m, e),
    };
  }

  /** Counters flushed as one EMF document per `flush()` (once per invocation, as Powertools does). */
  counters(fn: HandlerName): Counters & { flush(): void } {
    let pending = new Set<string>();
    return {
      count: (name) => {
        pending.add(name);
        this.metricNames.add(name);
      },
      flush: () => {
        if (pending.size > 0) this.tally(`${fn} EMF`, EMF_BYTES.envelope + EMF_BYTES.perMetric * pending.size + LOG_EVENT_OVERHEAD);
        pending = new Set();
      },
    };
  }
}
