/**
 * A simplified CloudWatch alarm evaluator (the alarm tests, `bench:chaos`): aggregates raw datapoints into the
 * alarm's periods with its statistic, treats missing periods as the alarm says, and applies
 * "M out of N" at the end of every period. Enough to show whether an alarm configuration fires on
 * a given metric stream (e.g. a healthy system whose hourly accounts all fall due together).
 */

/** A metric as a synthesized alarm names it. */
export interface AlarmMetric {
  readonly Namespace: string;
  readonly MetricName: string;
  readonly Dimensions?: readonly { readonly Name: string; readonly Value: unknown }[];
}

/** One entry of a metric-math alarm's `Metrics`: a metric read with a statistic, or an expression over the others' ids. */
export interface AlarmMetricQuery {
  readonly Id: string;
  readonly Expression?: string;
  readonly MetricStat?: { readonly Metric: AlarmMetric; readonly Period: number; readonly Stat: string };
  readonly ReturnData?: boolean;
}

/**
 * The alarm properties of a synthesized `AWS::CloudWatch::Alarm` the simulation reads: one metric
 * (`Period`, `Statistic`, and the metric's names), or metric math (`Metrics`: metrics and one
 * expression returning data, made of `*`, `/`, numbers, ids and `FILL(id, number)`).
 */
export interface SimulatedAlarm {
  readonly Period?: number;
  readonly Statistic?: string;
  readonly Namespace?: string;
  readonly MetricName?: string;
  readonly Dimensions?: readonly { readonly Name: string; readonly Value: unknown }[];
  readonly Metrics?: readonly AlarmMetricQuery[];
  readonly EvaluationPeriods: number;
  readonly DatapointsToAlarm?: number;
  readonly Threshold: number;
  readonly ComparisonOperator: string;
  readonly TreatMissingData?: string;
}

/** One raw datapoint: seconds since the start of the simulation, and its value. */
export interface RawPoint {
  readonly at: number;
  readonly value: number;
}

export type AlarmState = 'OK' | 'ALARM' | 'INSUFFICIENT_DATA';

function aggregate(values: number[], statistic: string): number {
  switch (statistic) {
    case 'Sum':
      return values.reduce((a, b) => a + b, 0);
    case 'Maximum':
      return Math.max(...values);
    case 'Minimum':
      return Math.min(...values);
    case 'Average':
      return values.reduce((a, b) => a + b, 0) / values.length;
    case 'SampleCount':
      return values.length;
    default:
      throw new Error(`statistic ${statistic} not simulated`);
  }
}

function breaches(value: number, alarm: SimulatedAlarm): boolean {
  switch (alarm.ComparisonOperator) {
    case 'GreaterThanOrEqualToThreshold':
      return value >= alarm.Threshold;
    case 'GreaterThanThreshold':
      return value > alarm.Threshold;
    case 'LessThanThreshold':
      return value < alarm.Threshold;
    case 'LessThanOrEqualToThreshold':
      return value <= alarm.Threshold;
    default:
      throw new Error(`operator ${alarm.ComparisonOperator} not simulated`);
  }
}

/** The metrics an alarm reads: its one metric, or each metric of its metric math. */
export function alarmMetrics(alarm: SimulatedAlarm): AlarmMetric[] {
  if (alarm.Metrics) return alarm.Metrics.flatMap((q) => (q.MetricStat ? [q.MetricStat.Metric] : []));
  if (alarm.Namespace === undefined || alarm.MetricName === undefined) throw new Error('alarm names no metric');
  return [{ Namespace: alarm.Namespace, MetricName: alarm.MetricName, ...(alarm.Dimensions ? { Dimensions: alarm.Dimensions } : {}) }];
}

/** The seconds of one evaluation period. */
export function alarmPeriod(alarm: SimulatedAlarm): number {
  const period = alarm.Period ?? alarm.Metrics?.find((q) => q.MetricStat)?.MetricStat?.Period;
  if (period === undefined) throw new Error('alarm has no period');
  return period;
}

/** Raw datapoints aggregated into `periods` periods of `seconds` with `statistic`; `undefined` where none fell. */
function bucketize(points: readonly RawPoint[], seconds: number, periods: number, statistic: string): (number | undefined)[] {
  const buckets: number[][] = Array.from({ length: periods }, () => []);
  for (const p of points) {
    const i = Math.floor(p.at / seconds);
    if (i >= 0 && i < periods) buckets[i]!.push(p.value);
  }
  return buckets.map((values) => (values.length === 0 ? undefined : aggregate(values, statistic)));
}

/** One period's value of a metric-math expression of products and quotients; `undefined` when an operand is missing or it divides by zero. */
function evaluate(expression: string, value: (id: string) => number | undefined): number | undefined {
  const terms = expression.split(/\s*([*/])\s*/);
  const term = (text: string): number | undefined => {
    const fill = /^FILL\(\s*(\w+)\s*,\s*(-?[\d.]+)\s*\)$/.exec(text);
    if (fill) return value(fill[1]!) ?? Number(fill[2]);
    if (/^-?[\d.]+$/.test(text)) return Number(text);
    if (/^\w+$/.test(text)) return value(text);
    throw new Error(`expression ${expression} not simulated (only *, /, numbers, ids and FILL)`);
  };
  let result = term(terms[0]!.trim());
  for (let i = 1; i < terms.length; i += 2) {
    const next = term(terms[i + 1]!.trim());
    if (result === undefined || next === undefined) return undefined;
    result = terms[i] === '*' ? result * next : result / next;
  }
  return result !== undefined && Number.isFinite(result) ? result : undefined;
}

/** The alarm's value per period: its metric's statistic, or its expression over its metrics' statistics. */
function periodValues(alarm: SimulatedAlarm, points: readonly RawPoint[] | MetricSource, periods: number): (number | undefined)[] {
  const seconds = alarmPeriod(alarm);
  const source: MetricSource = typeof points === 'function' ? points : () => points;
  if (!alarm.Metrics) {
    const raw = typeof points === 'function' ? points(alarmMetrics(alarm)[0]!) : points;
    return bucketize(raw, seconds, periods, alarm.Statistic ?? 'Average');
  }
  const byId = new Map<string, (number | undefined)[]>();
  for (const q of alarm.Metrics) if (q.MetricStat) byId.set(q.Id, bucketize(source(q.MetricStat.Metric), seconds, periods, q.MetricStat.Stat));
  const returned = alarm.Metrics.find((q) => q.ReturnData !== false && q.Expression !== undefined);
  if (!returned?.Expression) throw new Error('metric-math alarm without an expression returning data');
  const expression = returned.Expression;
  return Array.from({ length: periods }, (_, i) => evaluate(expression, (id) => byId.get(id)?.[i]));
}

/** The raw datapoints of one metric an alarm reads. */
export type MetricSource = (metric: AlarmMetric) => readonly RawPoint[];

/**
 * The alarm's state at the end of every period in `[0, durationSeconds)`. `points`: the datapoints
 * of its one metric, or a source giving each metric's (metric math). Missing data: `breaching` and
 * `notBreaching` as named; `missing` and `ignore` leave the period out, and the state unchanged when
 * none of the window has data.
 */
export function simulateAlarm(alarm: SimulatedAlarm, points: readonly RawPoint[] | MetricSource, durationSeconds: number): AlarmState[] {
  const periods = Math.floor(durationSeconds / alarmPeriod(alarm));
  const buckets = periodValues(alarm, points, periods);
  const missing = alarm.TreatMissingData ?? 'missing';
  const needed = alarm.DatapointsToAlarm ?? alarm.EvaluationPeriods;
  const states: AlarmState[] = [];
  let state: AlarmState = 'INSUFFICIENT_DATA';
  for (let end = 0; end < periods; end++) {
    const window = buckets.slice(Math.max(0, end - alarm.EvaluationPeriods + 1), end + 1);
    const judged = window
      .map((v) => (v === undefined ? (missing === 'breaching' ? true : missing === 'notBreaching' ? false : undefined) : breaches(v, alarm)))
      .filter((b): b is boolean => b !== undefined);
    if (judged.length > 0) state = judged.filter(Boolean).length >= needed ? 'ALARM' : 'OK';
    states.push(state);
  }
  return states;
}

/** `count` datapoints of `value`, one every `everySeconds` from `start`. */
export function series(value: number | ((at: number) => number | undefined), everySeconds: number, durationSeconds: number): RawPoint[] {
  const out: RawPoint[] = [];
  for (let at = 0; at < durationSeconds; at += everySeconds) {
    const v = typeof value === 'function' ? value(at) : value;
    if (v !== undefined) out.push({ at, value: v });
  }
  return out;
}
