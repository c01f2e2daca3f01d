import type { SNSEvent } from 'aws-lambda';

/** The `mail` object of the tests' SES notifications. */
export const SES_TEST_MAIL = {
  timestamp: '2025-03-04T07:00:00.000Z',
  messageId: '0100018e-test',
  source: 'sentinel@example.com',
  destination: ['x@example.com'],
};

/** SES events (objects, or raw strings for malformed ones) as SNS delivers them to `ses-events`, one record each. */
export function snsEvent(messages: (unknown | string)[]): SNSEvent {
  return {
    Records: messages.map((m, i) => ({
      EventSource: 'aws:sns',
      EventVersion: '1.0',
      EventSubscriptionArn: 'arn:aws:sns:us-east-1:000000000000:ses-events:sub',
      Sns: {
        SignatureVersion: '1',
        Timestamp: SES_TEST_MAIL.timestamp,
        Signature: 'sig',
        SigningCertUrl: 'https://sns.example/cert.pem',
        MessageId: `sns-${i}`,
        Message: typeof m === 'string' ? m : JSON.stringify(m),
        MessageAttributes: {},
        Type: 'Notification',
        UnsubscribeUrl: 'https://sns.example/unsubscribe',
        TopicArn: 'arn:aws:sns:us-east-1:000000000000:ses-events',
        Subject: '',
      },
    })),
  };
}
