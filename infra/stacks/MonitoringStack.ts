import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import type { HandlerName } from '../../functions/config/handlerCatalog';
import { LINK_API_STAGE, linkApiName, linkWebAclName } from '../config/resourceNames';
import type { StageConfig } from '../config/stageConfig';
import { EncryptedTopic } from '../constructs/EncryptedTopic';
import { LINK_FIREWALL_RULES } from '../constructs/LinkFirewall';
import { createStageDashboard } from '../monitoring/dashboard';
import {
  MAIL_THROTTLED_SERVICES,
  MALFORMED_MESSAGE_SERVICES,
  apiMetric,
  customMetric,
  lambdaMetric,
  pollFailurePercent,
  queueMetric,
  sesReputationMetric,
  topicFailuresMetric,
  wafMetric,
} from '../monitoring/metrics';

/** A work queue as the monitoring stack sees it: names only, and how old its oldest message may get. */
export interface WatchedQueue {
  /** Alarm id prefix, e.g. `Collect`. */
  readonly id: string;
  readonly queueName: string;
  readonly deadLetterQueueName: string;
  /** The backlog alarm fires when the oldest message is older than this (2 of 3 five-minute periods). */
  readonly maxAge: Duration;
}

export interface MonitoringStackProps extends StackProps {
  readonly config: StageConfig;
  /** The functions, by handler name (physical name `<prefix><handler>`). */
  readonly functions: readonly HandlerName[];
  readonly queues: readonly WatchedQueue[];
  /** Failure destinations of asynchronous invocations, by alarm id prefix and queue name; alarmed like DLQs. */
  readonly failureQueues: readonly { readonly id: string; readonly queueName: string }[];
  /** The SNS topic SES publishes bounces and complaints to. */
  readonly sesEventsTopicName: string;
}

/**
 * Functions whose single failed invocation is noise (the work is retried or redone by the next run),
 * so their error alarm needs 2 of 3 five-minute periods with errors; every other function alarms on one.
 */
export const RETRIED_FUNCTIONS: ReadonlySet<HandlerName> = new Set(['dispatch', 'collect', 'notify', 'ses-events']);

/** SES reviews accounts above about 5 % bounces and 0.1 % complaints; these alarm before that. */
export const SES_BOUNCE_RATE_ALARM = 0.04;
export const SES_COMPLAINT_RATE_ALARM = 0.0008;

/**
 * The link-flood alarms: requests (and POSTs) the WAF's per-client rate rules blocked in a
 * five-minute period, in 2 of 3 periods. A few blocked clicks are a person retrying; this many,
 * sustained, is a script.
 */
export const LINK_FLOOD_BLOCKED_ALARM = { requests: 100, posts: 20 } as const;

/**
 * The chain-outage alarm: the share of polls that failed on the chain (`PollErrors` / `Polls`, per
 * five-minute period), at or above this percentage in 2 of 3 periods. An hour-long outage fires it
 * within ten minutes; one bad period (a blip, a single account the chain refuses) does not.
 */
export const CHAIN_POLL_FAILURE_ALARM = { percent: 50, datapoints: 2, periods: 3 } as const;

/** The SES-throttling alarm: throttled sends in every one of this many five-minute periods (a quarter hour of it; a burst does not fire it). */
export const MAIL_THROTTLED_ALARM = { periods: 3 } as const;

/**
 * The held-back channel jobs alarm: jobs received before their `notBefore` (a webhook's retry
 * hours later, or an announced wait past SQS's 15 minutes) are put back every 15 minutes and
 * counted (`ChannelJobsHeldBack`), so a 15-minute period's sum is about how many deliveries are in
 * such a wait. At least `jobs` in each of `periods` periods (an hour): many notices are waiting
 * hours for failing destinations. One failing webhook with a notice or two stays below it (its end
 * is `WebhookRetriesExhausted`).
 */
export const CHANNEL_HELD_BACK_ALARM = { jobs: 20, periodMinutes: 15, periods: 4 } as const;

/**
 * The waiting-decision alarm: the oldest unit on the protective-decision queue (one delegate of a
 * decision; a redelivered unit keeps its first send time) at least this old, in 2 of the last 3
 * one-minute periods. A unit takes seconds; keys are meant to be gone within a poll and 30 s of a
 * loss, and the signer refuses a decision past PROTECTION_DECISION_MAX_AGE_MINUTES (5), so this
 * says so minutes before that refusal.
 */
export const DECISION_WAITING_ALARM = { age: Duration.minutes(2), datapoints: 2, periods: 3 } as const;

/** The report-lateness alarm: a report sent more than this after its local due time means a missed run. */
export const REPORT_LATENESS_ALARM = Duration.hours(1);

interface AlarmSpec {
  readonly description: string;
  readonly metric: IMetric;
  readonly threshold: number;
  readonly comparison: ComparisonOperator;
  readonly missing: TreatMissingData;
  /** `datapoints` of the last `periods` periods must breach (default 1 of 1). */
  readonly datapoints?: number;
  readonly periods?: number;
}

const AT_LEAST = ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD;

/**
 * Alarms (all to one encrypted SNS topic, on ALARM and on OK) and the stage dashboard. Every metric
 * is addressed by deterministic names (functions, queues, topic, the link API and its web ACL):
 * this stack imports no export. See docs/operations.md for what each means.
 */
export class MonitoringStack extends Stack {
  readonly alarmTopic: EncryptedTopic;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: MonitoringStackProps) {
    super(scope, id, props);
    const { config } = props;
    const { stage, prefix } = config;
    const five = Duration.minutes(5);
    this.alarmTopic = new EncryptedTopic(this, 'Alarms', {
      topicName: `${prefix}alarms`,
      publishers: ['cloudwatch.amazonaws.com'],
    });
    if (config.alarmEmail) this.alarmTopic.topic.addSubscription(new EmailSubscription(config.alarmEmail));
    const api = { name: linkApiName(prefix), stage: LINK_API_STAGE };
    const firewall = { webAclName: linkWebAclName(prefix), region: this.region, rules: Object.values(LINK_FIREWALL_RULES) };

    for (const q of props.queues) {
      this.alarm(`${q.id}DeadLetters`, {
        description: `Messages are waiting in ${q.deadLetterQueueName}: inspect, fix, then redrive (docs/operations.md).`,
        metric: queueMetric('ApproximateNumberOfMessagesVisible', q.deadLetterQueueName),
        threshold: 1,
        comparison: AT_LEAST,
        missing: TreatMissingData.NOT_BREACHING,
      });
      this.alarm(`${q.id}Backlog`, {
        description: `The oldest message in ${q.queueName} is older than ${q.maxAge.toHumanString()}: its consumer is failing, throttled or too slow.`,
        metric: queueMetric('ApproximateAgeOfOldestMessage', q.queueName, five),
        threshold: q.maxAge.toSeconds(),
        comparison: AT_LEAST,
        missing: TreatMissingData.NOT_BREACHING,
        datapoints: 2,
        periods: 3,
      });
    }
    for (const q of props.failureQueues) {
      this.alarm(`${q.id}Waiting`, {
        description: `Events a function could not process are waiting in ${q.queueName}: inspect, fix, then replay them (docs/operations.md).`,
        metric: queueMetric('ApproximateNumberOfMessagesVisible', q.queueName),
        threshold: 1,
        comparison: AT_LEAST,
        missing: TreatMissingData.NOT_BREACHING,
      });
    }
    for (const handler of props.functions) {
      const functionName = `${prefix}${handler}`;
      const retried = RETRIED_FUNCTIONS.has(handler);
      this.alarm(`${pascal(handler)}Errors`, {
        description: `${handler} failed (invocation errors)${retried ? ' in 2 of the last 3 five-minute periods' : ' in the last 5 minutes'}.`,
        metric: lambdaMetric('Errors', functionName),
        threshold: 1,
        comparison: AT_LEAST,
        missing: TreatMissingData.NOT_BREACHING,
        ...(retried ? { datapoints: 2, periods: 3 } : {}),
      });
      this.alarm(`${pascal(handler)}Throttles`, {
        description: `${handler} was throttled in the last 5 minutes.`,
        metric: lambdaMetric('Throttles', functionName),
        threshold: 1,
        comparison: AT_LEAST,
        missing: TreatMissingData.NOT_BREACHING,
      });
    }
    this.alarm('CollectionHeartbeat', {
      description:
        'Accounts are overdue for a poll (OverdueAccounts > 0, from dispatch), or dispatch stopped reporting it (missing data breaches), in 2 of the last 3 five-minute periods.',
      metric: customMetric('OverdueAccounts', 'dispatch', stage, 'Maximum', five),
      threshold: 0,
      comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
      missing: TreatMissingData.BREACHING,
      datapoints: 2,
      periods: 3,
    });
    this.alarm('ChainPollFailures', {
      description: `At least ${CHAIN_POLL_FAILURE_ALARM.percent} % of polls failed on the chain (PollErrors / Polls) in ${CHAIN_POLL_FAILURE_ALARM.datapoints} of the last ${CHAIN_POLL_FAILURE_ALARM.periods} five-minute periods: the chain (node or indexer) is down or refusing us. Reports still go out from stored data; the gap is fetched when it returns (docs/operations.md).`,
      metric: pollFailurePercent(stage, five),
      threshold: CHAIN_POLL_FAILURE_ALARM.percent,
      comparison: AT_LEAST,
      // A period without polls says nothing about the chain: the state stays as it was.
      missing: TreatMissingData.IGNORE,
      datapoints: CHAIN_POLL_FAILURE_ALARM.datapoints,
      periods: CHAIN_POLL_FAILURE_ALARM.periods,
    });
    this.alarm('ApiServerErrors', {
      description: 'The link endpoint answered 5xx in 2 of the last 3 five-minute periods.',
      metric: apiMetric('5XXError', api.name, api.stage),
      threshold: 1,
      comparison: AT_LEAST,
      missing: TreatMissingData.NOT_BREACHING,
      datapoints: 2,
      periods: 3,
    });
    for (const [id, rule, threshold, what] of [
      ['LinkFloodBlocked', LINK_FIREWALL_RULES.perClient, LINK_FLOOD_BLOCKED_ALARM.requests, 'requests'],
      ['LinkPostFloodBlocked', LINK_FIREWALL_RULES.perClientPosts, LINK_FLOOD_BLOCKED_ALARM.posts, 'POSTs'],
    ] as const) {
      this.alarm(id, {
        description: `The link endpoint's WAF turned away at least ${threshold} ${what} over the per-client limit (rule ${rule}) in 2 of the last 3 five-minute periods: a flood from a few addresses (docs/operations.md).`,
        metric: wafMetric('BlockedRequests', firewall.webAclName, firewall.region, rule),
        threshold,
        comparison: AT_LEAST,
        missing: TreatMissingData.NOT_BREACHING,
        datapoints: 2,
        periods: 3,
      });
    }
    this.alarm('NotificationFailures', {
      description: 'notify gave up on notifications (NotificationFailures) in 2 of the last 3 five-minute periods.',
      metric: customMetric('NotificationFailures', 'notify', stage, 'Sum', five),
      threshold: 1,
      comparison: AT_LEAST,
      missing: TreatMissingData.NOT_BREACHING,
      datapoints: 2,
      periods: 3,
    });
    this.alarm('ChannelBroken', {
      description:
        'A channel destination refused for good (ChannelRefused): the channel is marked broken and gets nothing until `sentinel channels test` succeeds (docs/operations.md).',
      metric: customMetric('ChannelRefused', 'channel-worker', stage, 'Sum', five),
      threshold: 1,
      comparison: AT_LEAST,
      missing: TreatMissingData.NOT_BREACHING,
    });
    this.alarm('WebhookRetriesExhausted', {
      description:
        'A webhook failed every attempt of its retry schedule (about 27 h: 5xx, 4xx, timeouts, TLS, DNS) and was marked broken (WebhookRetriesExhausted); its recipients were emailed. `sentinel channels list` shows the last failure: have the endpoint fixed, then `sentinel channels test <name>` (docs/operations.md).',
      metric: customMetric('WebhookRetriesExhausted', 'channel-worker', stage, 'Sum', five),
      threshold: 1,
      comparison: AT_LEAST,
      missing: TreatMissingData.NOT_BREACHING,
    });
    this.alarm('ChannelJobsHeldBack', {
      description: `At least ${CHANNEL_HELD_BACK_ALARM.jobs} channel jobs were held back for a retry or an announced wait hours away (ChannelJobsHeldBack) in each of the last ${CHANNEL_HELD_BACK_ALARM.periods} ${CHANNEL_HELD_BACK_ALARM.periodMinutes}-minute periods: destinations (usually webhooks) keep failing and their notices wait hours. \`sentinel channels list\` shows which (last delivery failed) (docs/operations.md).`,
      metric: customMetric('ChannelJobsHeldBack', 'channel-worker', stage, 'Sum', Duration.minutes(CHANNEL_HELD_BACK_ALARM.periodMinutes)),
      threshold: CHANNEL_HELD_BACK_ALARM.jobs,
      comparison: AT_LEAST,
      missing: TreatMissingData.NOT_BREACHING,
      datapoints: CHANNEL_HELD_BACK_ALARM.periods,
      periods: CHANNEL_HELD_BACK_ALARM.periods,
    });
    this.alarm('ChannelPayloadRejected', {
      description:
        'A channel destination refused our payload (ChannelPayloadRejected): a rendering bug of ours; the channel stays ok but that notice was not delivered there.',
      metric: customMetric('ChannelPayloadRejected', 'channel-worker', stage, 'Sum', five),
      threshold: 1,
      comparison: AT_LEAST,
      missing: TreatMissingData.NOT_BREACHING,
    });
    this.alarm('RevocationSignerUnavailable', {
      description:
        'revoke-page could not invoke sign-revocation at all (function missing or invoke denied): one-click revocation is down and every confirmation reads "unavailable" (docs/operations.md).',
      metric: customMetric('RevocationSignerUnavailable', 'revoke-page', stage, 'Sum', Duration.minutes(1)),
      threshold: 1,
      comparison: AT_LEAST,
      missing: TreatMissingData.NOT_BREACHING,
    });
    for (const service of MALFORMED_MESSAGE_SERVICES) {
      this.alarm(`${pascal(service)}MalformedMessages`, {
        description: `${service} received a queue message it could not parse (MalformedMessages): a producer and consumer disagree.`,
        metric: customMetric('MalformedMessages', service, stage, 'Sum', five),
        threshold: 1,
        comparison: AT_LEAST,
        missing: TreatMissingData.NOT_BREACHING,
      });
    }
    for (const service of MAIL_THROTTLED_SERVICES) {
      this.alarm(`${pascal(service)}MailThrottled`, {
        description: `SES answered "throttling" to ${service}'s sends (MailThrottled) in each of the last ${MAIL_THROTTLED_ALARM.periods} five-minute periods: MAIL_RATE is above the account's SES sending rate, or SES is limiting it. Sends are retried and nothing is lost yet; past the retry window the queues' dead-letter alarms and ReportsMissed follow (docs/operations.md).`,
        metric: customMetric('MailThrottled', service, stage, 'Sum', five),
        threshold: 1,
        comparison: AT_LEAST,
        missing: TreatMissingData.NOT_BREACHING,
        datapoints: MAIL_THROTTLED_ALARM.periods,
        periods: MAIL_THROTTLED_ALARM.periods,
      });
    }
    for (const [id, metric, what] of [
      [
        'DecisionsRefused',
        'DecisionsRefused',
        'the signer refused an automatic decision (DecisionsRefused): a key the kill switch or unknown-key protection meant to revoke was not (the breaker open, a cap, protection turned off, a web session, a key kept or known since)',
      ],
      [
        'DecisionsFailed',
        'DecisionsFailed',
        'an automatic decision failed (DecisionsFailed): the owner key or the chain stayed unavailable past the decision age, the chain refused the transaction, or a signing stopped midway',
      ],
    ] as const) {
      this.alarm(id, {
        description: `In the last 5 minutes ${what}. The desk got the result notice with a Revoke-all link; see the result in \`sentinel status\` and the runbook (docs/operations.md).`,
        metric: customMetric(metric, 'sign-revocation', stage, 'Sum', five),
        threshold: 1,
        comparison: AT_LEAST,
        missing: TreatMissingData.NOT_BREACHING,
      });
    }
    const decisions = props.queues.find((q) => q.id === 'Decisions');
    if (decisions) {
      this.alarm('DecisionWaiting', {
        description: `The oldest waiting unit of an automatic decision is at least ${DECISION_WAITING_ALARM.age.toHumanString()} old (${decisions.queueName}, ApproximateAgeOfOldestMessage) in ${DECISION_WAITING_ALARM.datapoints} of the last ${DECISION_WAITING_ALARM.periods} minutes: the signer keeps failing (owner key, chain, lease) or is not running; past the decision age it refuses and the desk is told (docs/operations.md).`,
        metric: queueMetric('ApproximateAgeOfOldestMessage', decisions.queueName, Duration.minutes(1)),
        threshold: DECISION_WAITING_ALARM.age.toSeconds(),
        comparison: AT_LEAST,
        missing: TreatMissingData.NOT_BREACHING,
        datapoints: DECISION_WAITING_ALARM.datapoints,
        periods: DECISION_WAITING_ALARM.periods,
      });
    }
    this.alarm('ReportsMissed', {
      description:
        'Reconciliation (report-dispatch) found a report claimed and not delivered within its grace (ReportsMissed): see `sentinel report`, send it with `sentinel report --retry-missed` (docs/operations.md).',
      metric: customMetric('ReportsMissed', 'report-dispatch', stage, 'Sum', five),
      threshold: 1,
      comparison: AT_LEAST,
      missing: TreatMissingData.NOT_BREACHING,
    });
    this.alarm('ReportLateness', {
      description: `A daily report went out more than ${REPORT_LATENESS_ALARM.toHumanString()} after its local due time (ReportLatenessSeconds).`,
      metric: customMetric('ReportLatenessSeconds', 'report', stage, 'Maximum', Duration.hours(1)),
      threshold: REPORT_LATENESS_ALARM.toSeconds(),
      comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
      missing: TreatMissingData.NOT_BREACHING,
    });
    this.alarm('SesBounceRate', {
      description: `The account's SES bounce rate reached ${SES_BOUNCE_RATE_ALARM * 100} % (SES reviews accounts at about 5 %).`,
      metric: sesReputationMetric('Reputation.BounceRate'),
      threshold: SES_BOUNCE_RATE_ALARM,
      comparison: AT_LEAST,
      missing: TreatMissingData.NOT_BREACHING,
    });
    this.alarm('SesComplaintRate', {
      description: `The account's SES complaint rate reached ${SES_COMPLAINT_RATE_ALARM * 100} % (SES reviews accounts at about 0.1 %).`,
      metric: sesReputationMetric('Reputation.ComplaintRate'),
      threshold: SES_COMPLAINT_RATE_ALARM,
      comparison: AT_LEAST,
      missing: TreatMissingData.NOT_BREACHING,
    });
    this.alarm('SesEventNotificationsFailed', {
      description: `SNS could not deliver SES bounce/complaint events from ${props.sesEventsTopicName} to ses-events.`,
      metric: topicFailuresMetric(props.sesEventsTopicName),
      threshold: 1,
      comparison: AT_LEAST,
      missing: TreatMissingData.NOT_BREACHING,
    });

    createStageDashboard(this, 'Dashboard', {
      dashboardName: `${prefix}overview`,
      stage,
      prefix,
      functionNames: props.functions.map((h) => `${prefix}${h}`),
      workQueueNames: props.queues.map((q) => q.queueName),
      api,
      firewall,
    });
  }

  private alarm(id: string, o: AlarmSpec): void {
    const alarm = new Alarm(this, id, {
      alarmName: `${this.stackName}-${id}`,
      alarmDescription: o.description,
      metric: o.metric,
      threshold: o.threshold,
      comparisonOperator: o.comparison,
      evaluationPeriods: o.periods ?? 1,
      datapointsToAlarm: o.datapoints ?? 1,
      treatMissingData: o.missing,
    });
    const action = new SnsAction(this.alarmTopic.topic);
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
    this.alarms.push(alarm);
  }
}

/** `daily-report` -> `DailyReport`. */
function pascal(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, _dash: string, c: string) => c.toUpperCase());
}
