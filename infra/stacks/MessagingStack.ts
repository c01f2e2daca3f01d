import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { FUNCTION_SIZING } from '../config/functionSizing';
import type { StageConfig } from '../config/stageConfig';
import { EncryptedTopic } from '../constructs/EncryptedTopic';
import { IDENTITY_DEFAULT_FUNCTION, MailSender } from '../constructs/MailSender';
import { settingsFor, WorkQueue } from '../constructs/WorkQueue';
import { MAX_RECEIVE_COUNT } from '../../functions/queue/workQueueSettings';
import { REPORT_QUEUE } from '../../functions/services/report/schedule/reportWorkers';
import { CHANNEL_QUEUE } from '../../functions/services/channels/channelQueueSettings';
import { FANOUT_QUEUE } from '../../functions/services/notify/fanOutQueueSettings';
import { REVOCATION_QUEUE } from '../../functions/services/revocation/revocationQueueSettings';
import { DECISION_QUEUE } from '../../functions/services/protection/decisionQueueSettings';

export { MAX_RECEIVE_COUNT };

/**
 * Queues between the jobs, and the mail configuration (SES configuration set, bounce/complaint topic).
 * Every queue has its dead-letter queue (alarmed by the monitoring stack): `collect`, `notify`,
 * `report`, `fanout`, `channel`, and the FIFO `revocations.fifo` and `decisions.fifo`.
 */
export class MessagingStack extends Stack {
  readonly collect: WorkQueue;
  readonly notify: WorkQueue;
  /** Daily reports claimed by `report-dispatch`, one message each, consumed by `daily-report`. */
  readonly report: WorkQueue;
  /**
   * Published notify events (`fanout` jobs) from `collect`, `sign-revocation` and
   * `revoke-all-worker` (`notifyPublisher`), consumed by `channel-fanout`.
   */
  readonly fanout: WorkQueue;
  /**
   * One job per notice and routed channel, from `channel-fanout`, `notify` (onboarding) and
   * `daily-report` (and delayed re-queues from the worker), consumed by `channel-worker`.
   */
  readonly channel: WorkQueue;
  /**
   * Revocations, one delegate per message (FIFO, grouped by account, deduplicated by action,
   * delegate and attempt): revoke-all units from `revoke-all-page`, consumed by `revoke-all-worker`.
   */
  readonly revocations: WorkQueue;
  /**
   * Automatic revocations, one delegate of a protective decision per message (FIFO, grouped by
   * account, deduplicated by decision and delegate): queued by collect's protection service,
   * consumed by `decision-worker`, which invokes the signer.
   */
  readonly decisions: WorkQueue;
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
    this.fanout = new WorkQueue(this, 'Fanout', {
      queueName: `${config.prefix}fanout`,
      // The same settings as the local fan-out queue (`npm start`, `serve`, `collect`).
      settings: FANOUT_QUEUE,
    });
    this.channel = new WorkQueue(this, 'Channel', {
      queueName: `${config.prefix}channel`,
      // The same settings as the local channel queue (`npm start`, `serve`, `collect`).
      settings: CHANNEL_QUEUE,
    });
    this.revocations = new WorkQueue(this, 'Revocations', {
      queueName: `${config.prefix}revocations`,
      fifo: true,
      settings: REVOCATION_QUEUE,
    });
    this.decisions = new WorkQueue(this, 'Decisions', {
      queueName: `${config.prefix}decisions`,
      fifo: true,
      // The same settings as the local decision queue (`npm start`, `serve`, `collect`).
      settings: DECISION_QUEUE,
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
      identityDefaultFunctionName: `${config.prefix}${IDENTITY_DEFAULT_FUNCTION}`,
      logRetention: config.logRetention,
      ...(config.alarmEmail ? { operatorEmail: config.alarmEmail } : {}),
    });
  }
}
