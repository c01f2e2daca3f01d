import { Duration, Validations } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/**
 * Where asynchronous invocations of one function go when they still fail after Lambda's retries
 * (or grew too old to run): an encrypted queue that keeps them 14 days for inspection and replay,
 * alarmed by the monitoring stack like a dead-letter queue. Nothing is dropped silently.
 * Created directly in `scope` under `id`, so its logical id is `id` (a named queue cannot be replaced).
 */
export function createFailureQueue(scope: Construct, id: string, queueName: string): Queue {
  const queue = new Queue(scope, id, {
    queueName,
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
  });
  Validations.of(queue).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason: 'This queue is itself the failure destination of asynchronous invocations; it has no consumer to dead-letter from.',
  });
  return queue;
}
