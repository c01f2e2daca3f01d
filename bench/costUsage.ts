import type { Counters, Log } from '../functions/shared/observability';

/**
 * Bytes CloudWatch Logs ingests per invocation besides the function's own lines: Lambda's START,
 * END and REPORT lines (measured from real log streams of Node functions: ~110, ~60 and ~230
 * bytes with the request id), plus the log event overhead CloudWatch bills (26 bytes per event).
 */
export const PLATFORM_LOG_BYTES_PER_INVOCATION = 110 + 60 + 230 + 3 * 26;
/** An EMF document Powertools writes per flush with metrics: its envelope, plus per metric name. */
export const EMF_BYTES = { envelope: 260, perMetric: 70 } as const;
const LOG_EVENT_OVERHEAD = 26;

/** Everything the cost model counts, as measured in one run. */
export class Usage {
  /** Per function: invocations, billed ms (each rounded up to 1 ms). */
  readonly lambda = new Map<string, { invocations: number; billedMs: number }>();
  /** SQS API requests (send, receive, delete), each batch of up to 10 one request. */
  sqsRequests = 0;
  /** Messages sent to the notify queue (alert events). */
  notifyEvents = 0;
  logBytes = 0;
  /** Distinct custom metric names emitted. */
  readonly metricNames = new Set<string>();

  invocation(fn: string, ms: number): void {
    const entry = this.lambda.get(fn) ?? { invocations: 0, billedMs: 0 };
    entry.invocations++;
    entry.billedMs += Math.max(1, Math.ceil(ms));
    this.lambda.set(fn, entry);
    this.logBytes += PLATFORM_LOG_BYTES_PER_INVOCATION;
  }

  /**
   * A `Log` writing nothing but counting the bytes of the JSON line Powertools would write at
   * INFO level (debug lines are not written), with its standard keys.
   */
  log(service: string): Log {
    const line = (level: string, message: string, extra?: Record<string, unknown>) => {
      const json = JSON.stringify({
        level,
        message,
        timestamp: '2026-11-23T10:00:00.000Z',
        service,
        sampling_rate: 0,
        xray_trace_id: '1-6741a2b3-0123456789abcdef01234567',
        ...extra,
      });
      this.logBytes += Buffer.byteLength(json) + 1 + LOG_EVENT_OVERHEAD;
    };
    return {
      debug: () => undefined,
      info: (m, e) => line('INFO', m, e),
      warn: (m, e) => line('WARN', m, e),
      error: (m, e) => line('ERROR', m, e),
    };
  }

  /** Counters flushed as one EMF document per `flush()` (once per invocation, as Powertools does). */
  counters(): Counters & { flush(): void } {
    let pending = new Set<string>();
    return {
      count: (name) => {
        pending.add(name);
        this.metricNames.add(name);
      },
      flush: () => {
        if (pending.size > 0) this.logBytes += EMF_BYTES.envelope + EMF_BYTES.perMetric * pending.size + LOG_EVENT_OVERHEAD;
        pending = new Set();
      },
    };
  }
}
