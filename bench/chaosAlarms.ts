import { App } from 'aws-cdk-lib';
import type { Counters } from '../functions/shared/observability';
import {
  alarmMetrics,
  alarmPeriod,
  simulateAlarm,
  type AlarmMetric,
  type AlarmState,
  type RawPoint,
  type SimulatedAlarm,
} from '../infra/monitoring/alarmSimulator';
import { loadStageConfig } from '../infra/config/stageConfig';
import { monitoredResources } from '../infra/sentinelApp';
import { MessagingStack } from '../infra/stacks/MessagingStack';
import { MonitoringStack } from '../infra/stacks/MonitoringStack';

/** One alarm of the monitoring stack, as synthesized. */
export interface StackAlarm extends SimulatedAlarm {
  readonly AlarmName: string;
}

/** The alarms of the devnet monitoring stack (synthesized alone, with the messaging stack that names the queues), and the work queues by id. */
/** The deployed work queues (names, by the monitoring stack's id) a run samples for the SQS alarms. */
export type WatchedQueues = ReadonlyMap<string, { readonly queueName: string; readonly deadLetterQueueName: string }>;

export function stackAlarms(): { alarms: StackAlarm[]; queues: WatchedQueues } {
  const context = { stage: 'devnet', ownerKeys: ['desk-a'], alarmEmail: 'ops@example.com', mailFrom: 'alerts@sentinel.example.com' };
  const app = new App({ context });
  const config = loadStageConfig((key) => app.node.tryGetContext(key));
  const messaging = new MessagingStack(app, `${config.prefix}messaging`, { config });
  const resources = monitoredResources(config, messaging);
  const monitoring = new MonitoringStack(app, `${config.prefix}monitoring`, { config, ...resources });
  // CDK's CloudFormation schema check (about 20 s of CPU here) is the stack tests' job.
  const validation = process.env['CDK_VALIDATION'];
  process.env['CDK_VALIDATION'] = 'false';
  let assembly;
  try {
    assembly = app.synth();
  } finally {
    if (validation === undefined) delete process.env['CDK_VALIDATION'];
    else process.env['CDK_VALIDATION'] = validation;
  }
  const template = assembly.getStackByName(monitoring.stackName).template as {
    Resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
  };
  const alarms = Object.values(template.Resources)
    .filter((r) => r.Type === 'AWS::CloudWatch::Alarm')
    .map((r) => ({ ...r.Properties, AlarmName: String(r.Properties['AlarmName']).replace(`${monitoring.stackName}-`, '') }) as unknown as StackAlarm);
  return { alarms, queues: new Map(resources.queues.map((q) => [q.id, q])) };
}

/** A metric the run emits: the raw datapoints CloudWatch would receive, simulated ms. */
export interface MetricLog {
  /** Every custom metric (`count` and `seconds`) by name. */
  readonly custom: Map<string, { at: number; value: number }[]>;
  /** SQS metrics by queue name and metric (`ApproximateAgeOfOldestMessage` in seconds, `ApproximateNumberOfMessagesVisible`). */
  readonly sqs: Map<string, { at: number; value: number }[]>;
}

export function metricLog(): MetricLog {
  return { custom: new Map(), sqs: new Map() };
}

function push(map: Map<string, { at: number; value: number }[]>, key: string, at: number, value: number): void {
  const list = map.get(key) ?? [];
  list.push({ at, value });
  map.set(key, list);
}

/** `inner`, also recording each datapoint with the simulated time it was emitted at. */
export function recordingCounters(inner: Counters, log: MetricLog, now: () => number): Counters {
  return {
    count: (name, value = 1) => {
      inner.count(name, value);
      push(log.custom, name, now(), value);
    },
    seconds: (name, value) => {
      inner.seconds?.(name, value);
      push(log.custom, name, now(), value);
    },
  };
}

/** Records one sample of a queue's SQS metrics: the age of its oldest message, and its DLQ's depth. */
export function sampleQueue(
  log: MetricLog,
  names: { queueName: string; deadLetterQueueName: string },
  at: number,
  sample: { oldestAgeMs: number; deadLettered: number },
): void {
  push(log.sqs, `${names.queueName}#ApproximateAgeOfOldestMessage`, at, Math.round(sample.oldestAgeMs / 1000));
  push(log.sqs, `${names.deadLetterQueueName}#ApproximateNumberOfMessagesVisible`, at, sample.deadLettered);
}

/** What one alarm did over the run. */
export interface AlarmRun {
  readonly alarm: string;
  /** `null`: the run emits none of the alarm's metric (API, WAF, Lambda, SES reputation...), so it was not evaluated. */
  readonly states: readonly AlarmState[] | null;
  readonly periodMs: number;
}

/** The datapoints the run emitted of one metric; `null` when the run emits none of it. */
function pointsFor(metric: AlarmMetric, log: MetricLog): { at: number; value: number }[] | null {
  const queue = (metric.Dimensions ?? []).find((d) => d.Name === 'QueueName')?.Value;
  if (metric.Namespace === 'PortfolioSentinel') return log.custom.get(metric.MetricName) ?? [];
  if (metric.Namespace === 'AWS/SQS' && queue !== undefined) return log.sqs.get(`${String(queue)}#${metric.MetricName}`) ?? null;
  return null;
}

/** Runs every alarm on the metrics of a run of `durationMs` from `startMs` (an alarm on any metric the run does not emit is not evaluated). */
export function evaluateAlarms(alarms: readonly StackAlarm[], log: MetricLog, startMs: number, durationMs: number): AlarmRun[] {
  return alarms.map((alarm) => {
    const evaluated = alarmMetrics(alarm).every((metric) => pointsFor(metric, log) !== null);
    const raw = (metric: AlarmMetric): RawPoint[] => (pointsFor(metric, log) ?? []).map((p) => ({ at: (p.at - startMs) / 1000, value: p.value }));
    return { alarm: alarm.AlarmName, states: evaluated ? simulateAlarm(alarm, raw, durationMs / 1000) : null, periodMs: alarmPeriod(alarm) * 1000 };
  });
}

/** The spans (ms from the start) an alarm was in ALARM: from the end of the period it went in to the end of the one it left. */
export function alarmSpans(run: AlarmRun): { fromMs: number; toMs: number | null }[] {
  const spans: { fromMs: number; toMs: number | null }[] = [];
  (run.states ?? []).forEach((state, i) => {
    const end = (i + 1) * run.periodMs;
    const open = spans.at(-1);
    if (state === 'ALARM' && (open === undefined || open.toMs !== null)) spans.push({ fromMs: end, toMs: null });
    if (state !== 'ALARM' && open !== undefined && open.toMs === null) open.toMs = end;
  });
  return spans;
}
