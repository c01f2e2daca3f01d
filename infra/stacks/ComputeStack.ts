import { Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { Architecture } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { SnsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { REPORT_BATCH_SIZE, REPORT_WORKER_CONCURRENCY } from '../../functions/services/report/reportWorkers';
import type { StageConfig } from '../config/stageConfig';
import { ScheduledInvoke } from '../constructs/ScheduledInvoke';
import { SentinelFunction } from '../constructs/SentinelFunction';
import type { DataStack } from './DataStack';
import type { MessagingStack } from './MessagingStack';

/** Messages per `collect` invocation: 10 accounts at ~2 requests each fit its timeout at its rate. */
export const COLLECT_BATCH_SIZE = 10;
/** Messages per `notify` invocation. */
export const NOTIFY_BATCH_SIZE = 10;
/**
 * `notify` instances at once: SES accepts a per-account sending rate (1/s in the sandbox, tens
 * per second in production); two instances keep well inside it while the queue absorbs bursts.
 */
export const NOTIFY_CONCURRENCY = 2;

export interface ComputeStackProps extends StackProps {
  readonly config: StageConfig;
  readonly data: DataStack;
  readonly messaging: MessagingStack;
  /** `PUBLIC_BASE_URL`, from the web stack (so this stack depends on it, never the reverse). */
  readonly publicBaseUrl: string;
}

/**
 * The pipeline: `dispatch` (every minute) -> collect queue -> `collect` -> notify queue -> `notify`;
 * `report-dispatch` (every minute) -> report queue -> `daily-report`; `ses-events` (bounces and complaints).
 */
export class ComputeStack extends Stack {
  readonly dispatch: SentinelFunction;
  readonly collect: SentinelFunction;
  readonly notify: SentinelFunction;
  readonly reportDispatch: SentinelFunction;
  /** The report queue's worker. */
  readonly dailyReport: SentinelFunction;
  readonly sesEvents: SentinelFunction;
  /** Bounce/complaint events `ses-events` could not record after Lambda's retries. */
  readonly sesEventsFailures: Queue;
  readonly dispatchSchedule: ScheduledInvoke;
  readonly reportDispatchSchedule: ScheduledInvoke;

  constructor(scope: Construct, id: string, props: ComputeStackProps) {
    super(scope, id, props);
    const { config, data, messaging } = props;
    const table = data.tables.get.bind(data.tables);
    const renderArchitecture = config.renderArchitecture === 'arm64' ? Architecture.ARM_64 : Architecture.X86_64;

    this.dispatch = new SentinelFunction(this, 'Dispatch', {
      handler: 'dispatch',
      config,
      description: 'Every minute: finds the accounts due for a poll (GSI byNextDue) and queues them for collect.',
    });
    this.dispatch.bindTable(table('accounts'), 'readWrite').bindQueue(messaging.collect.queue, 'COLLECT_QUEUE_URL');
    this.dispatchSchedule = new ScheduledInvoke(this, 'DispatchSchedule', {
      scheduleName: `${config.prefix}dispatch`,
      description: 'Fires dispatch every minute',
      every: Duration.minutes(1),
      target: this.dispatch.fn,
      retryAttempts: 0, // the next minute's run picks up whatever this one missed
      maxEventAge: Duration.minutes(1),
    });

    this.collect = new SentinelFunction(this, 'Collect', {
      handler: 'collect',
      config,
      description: 'Polls the chain for each queued account, stores curves and snapshots, evaluates alerts.',
    });
    this.collect
      .bindTables(table, ['accounts', 'curves', 'snapshots', 'alerts', 'delegates'], 'readWrite')
      .bindQueue(messaging.notify.queue, 'NOTIFY_QUEUE_URL')
      .bindChain(config.chain, config.rate.collectRps)
      .consumeQueue(messaging.collect, { maxConcurrency: config.rate.collectConcurrency, batchSize: COLLECT_BATCH_SIZE });

    this.notify = new SentinelFunction(this, 'Notify', {
      handler: 'notify',
      config,
      description: 'Renders and sends alert emails from the notify queue, exactly once per event.',
      architecture: renderArchitecture,
    });
    this.notify
      .bindTables(table, ['accounts', 'curves', 'snapshots', 'delegates', 'suppressions'], 'read')
      .bindTable(table('deliveries'), 'readWrite')
      .bindSecret(data.linkSecret)
      .bindMail(messaging.mail)
      .bindMailRate(NOTIFY_CONCURRENCY)
      .bindPublicBaseUrl(props.publicBaseUrl)
      .consumeQueue(messaging.notify, { maxConcurrency: NOTIFY_CONCURRENCY, batchSize: NOTIFY_BATCH_SIZE });

    this.reportDispatch = new SentinelFunction(this, 'ReportDispatch', {
      handler: 'report-dispatch',
      config,
      description: 'Every minute: claims the daily reports whose local report time has come (GSI byNextReport) and queues one job each.',
    });
    this.reportDispatch.bindTable(table('accounts'), 'readWrite').bindQueue(messaging.report.queue, 'REPORT_QUEUE_URL');
    this.reportDispatchSchedule = new ScheduledInvoke(this, 'ReportDispatchSchedule', {
      scheduleName: `${config.prefix}report-dispatch`,
      description: 'Fires report-dispatch every minute',
      every: Duration.minutes(1),
      target: this.reportDispatch.fn,
      retryAttempts: 0, // the next minute's run picks up whatever this one missed
      maxEventAge: Duration.minutes(1),
    });

    this.dailyReport = new SentinelFunction(this, 'DailyReport', {
      handler: 'daily-report',
      config,
      description: 'Sends the daily reports queued by report-dispatch, once per account and local day, at its share of the mail rate.',
      architecture: renderArchitecture,
    });
    this.dailyReport
      .bindTable(table('accounts'), 'read')
      .bindTables(table, ['curves', 'snapshots', 'delegates', 'suppressions'], 'read')
      .bindTable(table('deliveries'), 'readWrite')
      .bindSecret(data.linkSecret)
      .bindMail(messaging.mail)
      .bindMailRate(REPORT_WORKER_CONCURRENCY)
      .bindPublicBaseUrl(props.publicBaseUrl)
      .consumeQueue(messaging.report, { maxConcurrency: REPORT_WORKER_CONCURRENCY, batchSize: REPORT_BATCH_SIZE });

    this.sesEvents = new SentinelFunction(this, 'SesEvents', {
      handler: 'ses-events',
      config,
      description: 'Suppresses addresses that bounced or complained (SES configuration set events via SNS).',
    });
    this.sesEvents.bindTable(table('suppressions'), 'write');
    this.sesEvents.fn.addEventSource(new SnsEventSource(messaging.sesEvents.topic));
    // SNS invokes asynchronously: an event still failing after Lambda's retries is kept here (and
    // alarmed on) instead of being dropped, so no bounce or complaint is lost.
    this.sesEventsFailures = new Queue(this, 'SesEventsFailures', {
      queueName: `${config.prefix}ses-events-failures`,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.sesEvents.fn.configureAsyncInvoke({ onFailure: new SqsDestination(this.sesEventsFailures), retryAttempts: 2 });
    Validations.of(this.sesEventsFailures).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the failure destination of ses-events; it has no consumer to dead-letter from.',
    });
  }
}
