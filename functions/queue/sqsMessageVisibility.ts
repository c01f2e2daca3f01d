import { ChangeMessageVisibilityCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { describeError } from '../shared/describeError';
import type { MessageVisibility, ReceivedMessage } from './messageVisibility';
import { QueueError } from './errors';

/** The queue URL of an SQS queue ARN (`arn:aws:sqs:<region>:<account>:<name>`). */
export function queueUrlOfArn(arn: string): string {
  const parts = arn.split(':');
  const [, partition, service, region, account, name] = parts;
  if (parts.length !== 6 || service !== 'sqs' || !partition || !region || !account || !name) throw new QueueError(arn, 'not an SQS queue ARN');
  const domain = partition === 'aws-cn' ? 'amazonaws.com.cn' : 'amazonaws.com';
  return `https://sqs.${region}.${domain}/${account}/${name}`;
}

/** `MessageVisibility` on Amazon SQS: one `ChangeMessageVisibility` per failed record. */
export class SqsMessageVisibility implements MessageVisibility {
  constructor(private readonly client: SQSClient) {}

  async change(message: ReceivedMessage, seconds: number): Promise<void> {
    const queueUrl = queueUrlOfArn(message.eventSourceARN);
    try {
      await this.client.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: message.receiptHandle, VisibilityTimeout: seconds }));
    } catch (error) {
      throw new QueueError(queueUrl, `ChangeMessageVisibility failed: ${describeError(error, { audience: 'log' })}`, { cause: error });
    }
  }
}
