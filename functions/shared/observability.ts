import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';

/** What services log through: Powertools' `Logger` fits, and so does a silent stub in the CLI. */
export interface Log {
  debug(message: string, extra?: Record<string, unknown>): void;
  info(message: string, extra?: Record<string, unknown>): void;
  warn(message: string, extra?: Record<string, unknown>): void;
  error(message: string, extra?: Record<string, unknown>): void;
}

/** Counters services emit (CloudWatch EMF through Powertools in AWS). */
export interface Counters {
  count(name: string, value?: number): void;
  /** Records a duration in seconds (one value per event, e.g. `ReportLatenessSeconds`). */
  seconds?(name: string, value: number): void;
}

/** The logger and metrics of one function, built once per cold start. */
export interface Observability {
  readonly log: Log;
  readonly counters: Counters;
  /** Flushes buffered metrics (end of an invocation). */
  flush(): void;
  /** Adds the invocation's Lambda context (request id, function, cold start) to every following log line. */
  addContext(context: Context): void;
}

/** The namespace every metric goes to; the heartbeat alarm watches `SuccessfulPolls` in it. */
export const METRICS_NAMESPACE = 'PortfolioSentinel';

/**
 * Structured JSON logs and EMF metrics via Powertools. `quiet` (the CLI) keeps stdout clean:
 * logs go to stderr at WARN and above, and metrics are not written. Metrics carry the dimension
 * `stage` when `stage` is given, by default from `SENTINEL_STAGE` (set by the stack on every
 * function), so stages sharing an account keep their metrics and alarms apart.
 */
export function createObservability(serviceName: string, options: { quiet?: boolean; stage?: string } = {}): Observability {
  const stage = options.stage ?? process.env['SENTINEL_STAGE'];
  const logger = new Logger({
    serviceName,
    ...(options.quiet ? { logLevel: 'WARN' as const } : {}),
  });
  const log = logTo(logger);
  const addContext = (context: Context): void => logger.addContext(context);
  if (options.quiet) {
    return {
      log,
      counters: { count: () => undefined },
      flush: () => undefined,
      addContext,
    };
  }
  const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName, ...(stage ? { defaultDimensions: { stage } } : {}) });
  return {
    log,
    counters: {
      count: (name, value = 1) => void metrics.addMetric(name, MetricUnit.Count, value),
      seconds: (name, value) => void metrics.addMetric(name, MetricUnit.Seconds, value),
    },
    flush: () => metrics.publishStoredMetrics(),
    addContext,
  };
}

function logTo(logger: Logger): Log {
  const at =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (message: string, extra?: Record<string, unknown>): void =>
      extra === undefined ? logger[level](message) : logger[level](message, extra);
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** A logger that drops everything (tests and benchmarks). */
export const silentLog: Log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** Counters that keep totals (and every recorded duration) in memory (tests, benchmarks and the CLI summary). */
export function memoryCounters(): Counters & { readonly totals: Map<string, number>; readonly values: Map<string, number[]> } {
  const totals = new Map<string, number>();
  const values = new Map<string, number[]>();
  return {
    totals,
    values,
    count: (name, value = 1) => void totals.set(name, (totals.get(name) ?? 0) + value),
    seconds: (name, value) => {
      totals.set(name, (totals.get(name) ?? 0) + value);
      const list = values.get(name) ?? [];
      list.push(value);
      values.set(name, list);
    },
  };
}
