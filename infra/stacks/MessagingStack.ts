import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { FUNCTION_SIZING } from '../config/functionSizing';
import type { StageConfig } from '../config/stageConfig';
import { EncryptedTopic } from '../constructs/EncryptedTopic';
import { MailSender } from '../constructs/MailSender';
import { settingsFor, WorkQueue } from '../constructs/WorkQueue';
import { MAX_RECEIVE_COUNT } from '../../functions/queue/workQueueSettings';
import { REPORT_QUEUE } from '../../functions/services/report/schedule/reportWorkers';

export { MAX_RECEIVE_COUNT };

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
      settings: settingsFor(FUNCTION_SIZING.collect.timeout),
    });
    this.notify = new WorkQueue(this, 'Notify', {
      queueName: `${config.prefix}notify`,
      settings: settingsFor(FUNCTION_SIZING.notify.timeout),
    });
    this.report = new WorkQueue(this, 'Report', {
      queueName: `${config.prefix}report`,
      // The same settings the local report pipeline uses (`npm start`, `serve`).
      settings: REPORT_QUEUE,
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
