/**
 * us-east-1 list prices the cost model (`bench/cost.ts`) uses, in USD, without free tiers or
 * volume discounts. Compiled 2026-11-23 from the AWS pricing pages: AWS Lambda (Arm), Amazon
 * DynamoDB (on-demand capacity, the November 2024 rates; standard table class), Amazon SQS
 * (standard queues), Amazon EventBridge Scheduler, Amazon SES (outbound email), AWS KMS, AWS
 * Secrets Manager, Amazon CloudWatch (logs, custom metrics, alarms). Check them against those
 * pages before quoting a figure.
 */
export const PRICES_US_EAST_1 = {
  date: '2026-11-23',
  region: 'us-east-1',
  sources: [
    'AWS Lambda pricing',
    'Amazon DynamoDB pricing (on-demand)',
    'Amazon SQS pricing',
    'Amazon EventBridge pricing (Scheduler)',
    'Amazon SES pricing',
    'AWS Key Management Service pricing',
    'AWS Secrets Manager pricing',
    'Amazon CloudWatch pricing',
  ],
  lambda: {
    /** Per GB-second, Arm (Graviton); x86 is 0.0000166667. */
    gbSecondArm: 0.0000133334,
    perRequest: 0.2 / 1e6,
  },
  dynamodb: {
    perWriteRequestUnit: 0.625 / 1e6,
    perReadRequestUnit: 0.125 / 1e6,
    perGbMonth: 0.25,
    /** Point-in-time recovery (continuous backups), per GB-month of table size. */
    pitrPerGbMonth: 0.2,
  },
  sqs: { perRequest: 0.4 / 1e6 },
  scheduler: { perInvocation: 1.0 / 1e6 },
  ses: { perEmail: 0.1 / 1000, perGbAttachments: 0.12 },
  kms: {
    perKeyMonth: 1.0,
    perSymmetricRequest: 0.03 / 10_000,
    /** Sign with an asymmetric ECC key (the owner keys). */
    perAsymmetricRequest: 0.15 / 10_000,
  },
  secretsManager: { perSecretMonth: 0.4, perApiCall: 0.05 / 10_000 },
  cloudwatch: {
    perGbLogsIngested: 0.5,
    perGbLogsStoredMonth: 0.03,
    perCustomMetricMonth: 0.3,
    perAlarmMonth: 0.1,
  },
} as const;
