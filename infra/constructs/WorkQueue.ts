import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption, RedrivePermission } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { VISIBILITY_FACTOR, workQueueSettings, type WorkQueueSettings } from '../../functions/queue/workQueueSettings';
import { queueArn } from '../config/resourceNames';

export { VISIBILITY_FACTOR };

export interface WorkQueueProps {
  /** Physical name of the queue; the dead-letter queue gets `-dlq` appended (both then `.fifo` when `fifo`). */
  readonly queueName: string;
  /**
   * A FIFO queue (and FIFO dead-letter queue): messages of one group are delivered one at a time, in
   * order; producers give each message its group and deduplication id (no content-based deduplication).
   */
  readonly fifo?: boolean;
  /** Its consumer's timeout, visibility timeout and receive count (`workQueueSettings`), shared with the local queues. */
  readonly settings: WorkQueueSettings;
}

/** The settings of a queue consumed by a function with `timeout`. */
export function settingsFor(timeout: Duration): WorkQueueSettings {
  return workQueueSettings(timeout.toSeconds());
}

/**
 * A work queue and its dead-letter queue, both encrypted with SQS-managed keys (SSE-SQS) and
 * refusing non-TLS requests. The dead-letter queue accepts dead letters from its own queue only
 * (redrive-allow policy, naming the queue by its fixed ARN). SSE-SQS rather than a customer key: producers and consumers in other
 * stacks need no `kms:` grants, and nothing outside this account reads the queues.
 */
export class WorkQueue extends Construct {
  /** Physical name: other stacks refer to the queue by it, never through an export. */
  readonly queueName: string;
  readonly deadLetterQueueName: string;
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly consumerTimeout: Duration;
  readonly maxReceiveCount: number;

  constructor(scope: Construct, id: string, props: WorkQueueProps) {
    super(scope, id);
    const suffix = props.fifo ? '.fifo' : '';
    this.queueName = `${props.queueName}${suffix}`;
    this.deadLetterQueueName = `${props.queueName}-dlq${suffix}`;
    const fifo = props.fifo ? { fifo: true, contentBasedDeduplication: false } : {};
    this.consumerTimeout = Duration.seconds(props.settings.consumerTimeoutSeconds);
    this.maxReceiveCount = props.settings.maxReceiveCount;
    this.deadLetterQueue = new Queue(this, 'DeadLetter', {
      queueName: this.deadLetterQueueName,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      redriveAllowPolicy: {
        redrivePermission: RedrivePermission.BY_QUEUE,
        sourceQueues: [Queue.fromQueueArn(this, 'Source', queueArn(this, this.queueName))],
      },
      ...fifo,
    });
    this.queue = new Queue(this, 'Queue', {
      queueName: this.queueName,
      ...fifo,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(4),
      visibilityTimeout: Duration.seconds(props.settings.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.settings.maxReceiveCount },
    });
  }
}
