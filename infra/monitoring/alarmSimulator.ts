/**
 * A simplified CloudWatch alarm evaluator (the alarm tests, `bench:chaos`): aggregates raw datapoints into the
 * alarm's periods with its statistic, treats missing periods as the alarm says, and applies
 * "M out of N" at the end of every period. Enough to show whether an alarm configuration fires on
 * a given metric stream (e.g. a healthy system whose hourly accounts all fall due together).
 */

/** The alarm properties of a synthesized `AWS::CloudWatch::Alarm` the simulation reads. */
export interface SimulatedAlarm {
  readonly Period: number;
  readonly EvaluationPeriods: number;
  readonly DatapointsToAlarm?: number;
  readonly Threshold: number;
  readonly ComparisonOperator: string;
  readonly TreatMissingData?: string;
  readonly Statistic: string;
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

/** The alarm's state at the end of every period in `[0, durationSeconds)`. */
export function simulateAlarm(alarm: SimulatedAlarm, points: readonly RawPoint[], durationSeconds: number): AlarmState[] {
  const periods = Math.floor(durationSeconds / alarm.Period);
  const buckets: (number | undefined)[] = [];
  for (let i = 0; i < periods; i++) {
    const inside = points.filter((p) => p.at >= i * alarm.Period && p.at < (i + 1) * alarm.Period).map((p) => p.value);
    buckets.push(inside.length === 0 ? undefined : aggregate(inside, alarm.Statistic));
  }
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
