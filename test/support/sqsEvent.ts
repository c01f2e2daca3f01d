import type { SQSEvent } from 'aws-lambda';

/** An SQS event as Lambda delivers it, one record per body, with message ids `m0`, `m1`, … */
export function sqsEvent(bodies: readonly string[], queue = 'q'): SQSEvent {
  return {
    Records: bodies.map((body, i) => ({
      messageId: `m${i}`,
      receiptHandle: `r${i}`,
      body,
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'test', ApproximateFirstReceiveTimestamp: '0' },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${queue}`,
      awsRegion: 'us-east-1',
    })),
  };
}
