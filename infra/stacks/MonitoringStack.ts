import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Metric, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import type { StageConfig } from '../config/stageConfig';
import { EncryptedTopic } from '../constructs/EncryptedTopic';
import { METRICS_NAMESPACE, type SentinelFunction } from '../constructs/SentinelFunction';
import type { WorkQueue } from '../constructs/WorkQueue';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';

/** The custom metric `collect` emits (Powertools EMF) for every account polled successfully. */
export const HEARTBEAT_METRIC = { namespace: METRICS_NAMESPACE, metricName: 'SuccessfulPolls', dimensionsMap: { service: 'collect' } };

export interface MonitoringStackProps extends StackProps {
  readonly config: StageConfig;
  readonly functions: readonly SentinelFunction[];
  readonly queues: readonly WorkQueue[];
  /** Failure destinations of asynchronous invocations (e.g. `ses-events`), alarmed like DLQs. */
  readonly failureQueues?: readonly IQueue[];
  /** Work queues whose oldest message must not wait longer than `maxAge` (e.g. the report queue). */
  readonly queueAges?: readonly { readonly work: WorkQueue; readonly maxAge: Duration }[];
}

/**
 * Alarms, all to one encrypted SNS topic: any message in a dead-letter queue; errors and throttles
 * of every function; and a heartbeat that fires when no poll succeeded for `heartbeatMinutes`
 * (missing data counts as breaching: silence is the failure it exists to catch).
 */
export class MonitoringStack extends Stack {
  readonly alarmTopic: EncryptedTopic;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: MonitoringStackProps) {
    super(scope, id, props);
    const { config } = props;
    this.alarmTopic = new EncryptedTopic(this, 'Alarms', {
      topicName: `${config.prefix}alarms`,
      publishers: ['cloudwatch.amazonaws.com'],
    });
    if (config.alarmEmail) this.alarmTopic.topic.addSubscription(new EmailSubscription(config.alarmEmail));

    for (const work of props.queues) {
      this.alarm(`${work.node.id}DeadLetters`, {
        description: `Messages are waiting in ${work.deadLetterQueue.queueName}: inspect, fix, then redrive (docs/operations.md).`,
        metric: work.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: 1,
        comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        missing: TreatMissingData.NOT_BREACHING,
      });
    }
    for (const queue of props.failureQueues ?? []) {
      this.alarm(`${queue.node.id}Waiting`, {
        description: `Events a function could not process are waiting in ${queue.queueName}: inspect, fix, then replay them (docs/operations.md).`,
        metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: 1,
        comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        missing: TreatMissingData.NOT_BREACHING,
      });
    }
    for (const { work, maxAge } of props.queueAges ?? []) {
      this.alarm(`${work.node.id}Age`, {
        description: `The oldest message in ${work.queue.queueName} has waited over ${maxAge.toMinutes()} minutes: its consumer is failing or the mail rate is too low for the load (docs/operations.md).`,
        metric: work.queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: maxAge.toSeconds(),
        comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
        missing: TreatMissingData.NOT_BREACHING,
      });
    }
    for (const f of props.functions) {
      this.alarm(`${f.node.id}Errors`, {
        description: `${f.handlerName} failed (invocation errors) in the last 5 minutes.`,
        metric: f.fn.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
        threshold: 1,
        comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        missing: TreatMissingData.NOT_BREACHING,
      });
      this.alarm(`${f.node.id}Throttles`, {
        description: `${f.handlerName} was throttled in the last 5 minutes.`,
        metric: f.fn.metricThrottles({ period: Duration.minutes(5), statistic: 'Sum' }),
        threshold: 1,
        comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        missing: TreatMissingData.NOT_BREACHING,
      });
    }
    this.alarm('CollectionHeartbeat', {
      description: `No account was polled successfully in ${config.heartbeatMinutes} minutes (metric ${METRICS_NAMESPACE}/SuccessfulPolls, service=collect).`,
      metric: new Metric({ ...HEARTBEAT_METRIC, statistic: 'Sum', period: Duration.minutes(config.heartbeatMinutes) }),
      threshold: 1,
      comparison: ComparisonOperator.LESS_THAN_THRESHOLD,
      missing: TreatMissingData.BREACHING,
    });
  }

  private alarm(
    id: string,
    o: { description: string; metric: IMetric; threshold: number; comparison: ComparisonOperator; missing: TreatMissingData },
  ): void {
    const alarm = new Alarm(this, id, {
      alarmName: `${this.stackName}-${id}`,
      alarmDescription: o.description,
      metric: o.metric,
      threshold: o.threshold,
      comparisonOperator: o.comparison,
      evaluationPeriods: 1,
      treatMissingData: o.missing,
    });
    const action = new SnsAction(this.alarmTopic.topic);
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
    this.alarms.push(alarm);
  }
}
