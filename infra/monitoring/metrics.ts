import { Duration } from 'aws-cdk-lib';
import { MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { METRICS_NAMESPACE } from '../constructs/SentinelFunction';

/**
 * Metrics by name: every dimension is a deterministic physical name (function, queue, topic), so
 * the monitoring stack needs no export from the stacks it watches.
 */

/** The custom metrics the alarms and the dashboard read, and the service (function) that emits each. */
export const CUSTOM_METRICS = {
  /** dispatch, every run: accounts whose poll is overdue by more than its grace period (5 minutes; an hour for a one-off poll). */
  OverdueAccounts: 'dispatch',
  /** dispatch, every run: one-off polls (first polls, re-fetches) read and left for a later run, the backfill share spent. */
  OneOffPollsWaiting: 'dispatch',
  /** report worker, per report sent: seconds between the report's due time and its sending. */
  ReportLatenessSeconds: 'report',
  /** report worker: reports sent. */
  ReportsSent: 'report',
  /** notify: notifications that failed for good. */
  NotificationFailures: 'notify',
  /** collect: polls attempted, succeeded, failed on the chain. */
  Polls: 'collect',
  SuccessfulPolls: 'collect',
  PollErrors: 'collect',
  /** revoke-page: the signing function could not be invoked at all (missing, or the invoke was denied). */
  RevocationSignerUnavailable: 'revoke-page',
  /** revoke-page: Lambda throttled the signing function past the page's retry window ("busy, try again"). */
  RevocationSignerThrottled: 'revoke-page',
  /** channel-worker: a destination refused for good, and the channel was (or already was) marked broken. */
  ChannelRefused: 'channel-worker',
  /** channel-worker: a destination refused our payload (a 400 about it): our bug, the channel stays ok. */
  ChannelPayloadRejected: 'channel-worker',
  /** channel-worker: a webhook failed every attempt of its retry schedule and was marked broken. */
  WebhookRetriesExhausted: 'channel-worker',
  /** channel-worker: a job received before its `notBefore` was put back on the queue (a wait past 15 minutes). */
  ChannelJobsHeldBack: 'channel-worker',
} as const;
export type CustomMetricName = keyof typeof CUSTOM_METRICS;

/** Consumers of work queues; each emits `MalformedMessages` for a message it cannot parse. */
export const MALFORMED_MESSAGE_SERVICES = ['collect', 'notify', 'report', 'channel-fanout', 'channel-worker', 'revoke-all-worker', 'decision-worker'] as const;

/** Functions that send most of the email; each emits `MailThrottled` for a send SES answered with throttling (retried by the mail governor). */
export const MAIL_THROTTLED_SERVICES = ['notify', 'report'] as const;

/** Functions that call the chain; each may emit `ChainRequests` (dashboard only). */
export const CHAIN_REQUEST_SERVICES = ['collect', 'sign-revocation'] as const;

/** A custom metric (Powertools EMF): dimensions `service` and `stage` (from `SENTINEL_STAGE`). */
export function customMetric(metricName: string, service: string, stage: string, statistic: string, period: Duration): Metric {
  return new Metric({ namespace: METRICS_NAMESPACE, metricName, dimensionsMap: { service, stage }, statistic, period });
}

/**
 * The percentage of collect's polls that failed on the chain per period: `PollErrors` (counted only
 * when a poll fails, so filled with 0) over `Polls`. A period without polls has no value.
 */
export function pollFailurePercent(stage: string, period: Duration): MathExpression {
  return new MathExpression({
    expression: '100 * FILL(errors, 0) / polls',
    usingMetrics: { errors: customMetric('PollErrors', 'collect', stage, 'Sum', period), polls: customMetric('Polls', 'collect', stage, 'Sum', period) },
    label: 'Polls failed on the chain (%)',
    period,
  });
}

/** A metric of one Lambda function, by name. */
export function lambdaMetric(metricName: 'Errors' | 'Throttles' | 'Invocations', functionName: string, period = Duration.minutes(5)): Metric {
  return new Metric({ namespace: 'AWS/Lambda', metricName, dimensionsMap: { FunctionName: functionName }, statistic: 'Sum', period });
}

/** A metric of one SQS queue, by name (Maximum over the period). */
export function queueMetric(
  metricName: 'ApproximateNumberOfMessagesVisible' | 'ApproximateAgeOfOldestMessage',
  queueName: string,
  period = Duration.minutes(1),
): Metric {
  return new Metric({ namespace: 'AWS/SQS', metricName, dimensionsMap: { QueueName: queueName }, statistic: 'Maximum', period });
}

/** A metric of the link endpoint's REST API stage, by API name and stage name (`4XXError`, `5XXError`, `Count`). */
export function apiMetric(metricName: '4XXError' | '5XXError' | 'Count', apiName: string, stageName: string, period = Duration.minutes(5)): Metric {
  return new Metric({ namespace: 'AWS/ApiGateway', metricName, dimensionsMap: { ApiName: apiName, Stage: stageName }, statistic: 'Sum', period });
}

/**
 * Requests a regional WAF web ACL blocked or allowed, by ACL name, region and rule name (`ALL` for
 * the whole ACL).
 */
export function wafMetric(
  metricName: 'BlockedRequests' | 'AllowedRequests',
  webAclName: string,
  region: string,
  rule: string,
  period = Duration.minutes(5),
): Metric {
  return new Metric({ namespace: 'AWS/WAFV2', metricName, dimensionsMap: { WebACL: webAclName, Region: region, Rule: rule }, statistic: 'Sum', period });
}

/** An account-level SES reputation rate (what SES reviews sending accounts by), as a fraction. */
export function sesReputationMetric(metricName: 'Reputation.BounceRate' | 'Reputation.ComplaintRate', period = Duration.hours(1)): Metric {
  return new Metric({ namespace: 'AWS/SES', metricName, statistic: 'Maximum', period });
}

/** An SES sending event counted by the configuration set's CloudWatch destination (dimension `stage`). */
export function sesEventMetric(metricName: string, stage: string, period = Duration.minutes(5)): Metric {
  return new Metric({ namespace: 'AWS/SES', metricName, dimensionsMap: { stage }, statistic: 'Sum', period });
}

/** Deliveries of an SNS topic that failed for good (e.g. SES events that never reached `ses-events`). */
export function topicFailuresMetric(topicName: string, period = Duration.minutes(5)): Metric {
  return new Metric({ namespace: 'AWS/SNS', metricName: 'NumberOfNotificationsFailed', dimensionsMap: { TopicName: topicName }, statistic: 'Sum', period });
}
