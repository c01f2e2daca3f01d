import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { FUNCTION_SIZING } from '../config/functionSizing';
import type { StageConfig } from '../config/stageConfig';
import { EncryptedTopic } from '../constructs/EncryptedTopic';
import { MailSender } from '../constructs/MailSender';
import { WorkQueue } from '../constructs/WorkQueue';

/** Receives before a message is parked in its dead-letter queue. */
export const MAX_RECEIVE_COUNT = 5;

/**
 * Timeout the `report` worker (one daily report per message; not deployed yet) is sized for: the
 * report queue's visibility timeout is 6x this, and `consumeQueue` refuses a longer-running consumer.
 */
export const REPORT_WORKER_TIMEOUT = Duration.seconds(120);

/**
 * Queues between the jobs, and the mail configuration (SES configuration set, bounce/complaint topic).
 * The `report` queue (one message per daily report due, for the coming `report-dispatch` ->
 * `report` split of `daily-report`) exists already, with its dead-letter queue and alarms.
 */
export class MessagingStack extends Stack {
  readonly collect: WorkQueue;
  readonly notify: WorkQueue;
  /** Daily reports claimed by `report-dispatch`, one message each, consumed by `daily-report`. */
  readonly report: WorkQueue;
  readonly sesEvents: EncryptedTopic;
  readonly mail: MailSender;

  constructor(scope: Construct, id: string, props: StackProps & { config: StageConfig }) {
    super(scope, id, props);
    const { config } = props;
    this.collect = new WorkQueue(this, 'Collect', {
      queueName: `${config.prefix}collect`,
      consumerTimeout: FUNCTION_SIZING.collect.timeout,
      maxReceiveCount: MAX_RECEIVE_COUNT,
    });
    this.notify = new WorkQueue(this, 'Notify', {
      queueName: `${config.prefix}notify`,
      consumerTimeout: FUNCTION_SIZING.notify.timeout,
      maxReceiveCount: MAX_RECEIVE_COUNT,
    });
    this.report = new WorkQueue(this, 'Report', {
      queueName: `${config.prefix}report`,
      consumerTimeout: REPORT_WORKER_TIMEOUT,
      maxReceiveCount: MAX_RECEIVE_COUNT,
    });
    this.sesEvents = new EncryptedTopic(this, 'SesEvents', {
      topicName: `${config.prefix}ses-events`,
      publishers: ['ses.amazonaws.com'],
    });
    this.mail = new MailSender(this, 'Mail', {
      configurationSetName: `${config.prefix}mail`,
      from: config.mail.from,
      identity: config.mail.identity,
      sandboxRecipients: config.mail.sandboxRecipients,
      eventsTopic: this.sesEvents.topic,
      stage: config.stage,
    });
  }
}
