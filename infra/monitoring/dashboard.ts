import { Duration } from 'aws-cdk-lib';
import { Dashboard, GraphWidget, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { channelTypeMetrics } from '../../functions/services/channels/channelTypeMetric';
import {
  CHAIN_REQUEST_SERVICES,
  apiMetric,
  customMetric,
  lambdaMetric,
  pollFailurePercent,
  queueMetric,
  sesEventMetric,
  sesReputationMetric,
  wafMetric,
} from './metrics';

/** What the dashboard shows: names only, like the alarms. */
export interface StageDashboardProps {
  readonly dashboardName: string;
  readonly stage: string;
  readonly prefix: string;
  readonly functionNames: readonly string[];
  readonly workQueueNames: readonly string[];
  /** The link endpoint: REST API and stage names, and its WAF web ACL (name, region, rule names). */
  readonly api: { readonly name: string; readonly stage: string };
  readonly firewall: { readonly webAclName: string; readonly region: string; readonly rules: readonly string[] };
}

/**
 * One CloudWatch dashboard per stage: polls and overdue accounts, report lateness, queue ages,
 * emails, errors, chain requests, channel deliveries and failures, and the link endpoint's requests
 * with what its WAF blocked.
 */
export function createStageDashboard(scope: Construct, id: string, props: StageDashboardProps): Dashboard {
  const { stage } = props;
  const five = Duration.minutes(5);
  const graph = (title: string, left: IMetric[], right: IMetric[] = []): GraphWidget => new GraphWidget({ title, left, right, width: 12, height: 6 });
  const dashboard = new Dashboard(scope, id, { dashboardName: props.dashboardName });
  dashboard.addWidgets(
    graph(
      'Polls (collect); overdue accounts and waiting one-off polls (dispatch)',
      ['Polls', 'SuccessfulPolls', 'PollErrors'].map((m) => customMetric(m, 'collect', stage, 'Sum', five)),
      ['OverdueAccounts', 'OneOffPollsWaiting'].map((m) => customMetric(m, 'dispatch', stage, 'Maximum', Duration.minutes(1))),
    ),
    graph(
      'Report lateness (s) and reports sent',
      [customMetric('ReportLatenessSeconds', 'report', stage, 'Maximum', Duration.hours(1))],
      [customMetric('ReportsSent', 'report', stage, 'Sum', Duration.hours(1))],
    ),
  );
  dashboard.addWidgets(
    graph(
      'Age of the oldest message (s)',
      props.workQueueNames.map((q) => queueMetric('ApproximateAgeOfOldestMessage', q, five)),
    ),
    graph(
      'Emails (SES events)',
      ['Send', 'Delivery', 'Bounce', 'Complaint', 'Reject', 'DeliveryDelay', 'RenderingFailure'].map((m) => sesEventMetric(m, stage)),
      [sesReputationMetric('Reputation.BounceRate'), sesReputationMetric('Reputation.ComplaintRate')],
    ),
  );
  dashboard.addWidgets(
    graph(
      'Errors',
      props.functionNames.map((f) => lambdaMetric('Errors', f)),
      [apiMetric('5XXError', props.api.name, props.api.stage), customMetric('NotificationFailures', 'notify', stage, 'Sum', five)],
    ),
    graph(
      'Chain requests, and polls failed on the chain (%, right: the ChainPollFailures alarm)',
      CHAIN_REQUEST_SERVICES.map((s) => customMetric('ChainRequests', s, stage, 'Sum', Duration.minutes(1))),
      [pollFailurePercent(stage, five)],
    ),
  );
  dashboard.addWidgets(
    graph(
      'Channels (channel-worker): deliveries, and what did not go through',
      [customMetric('ChannelDeliveries', 'channel-worker', stage, 'Sum', five)],
      ['ChannelThrottled', 'ChannelRequeued', 'ChannelRefused', 'ChannelPayloadRejected', 'ChannelDeliveriesAbandoned', 'ChannelConfigErrors'].map((m) =>
        customMetric(m, 'channel-worker', stage, 'Sum', five),
      ),
    ),
    graph(
      'Channels by type: deliveries (left), failures (right: refused, payload rejected, passing failures)',
      channelTypeMetrics('Deliveries').map(({ type, metric }) =>
        customMetric(metric, 'channel-worker', stage, 'Sum', five).with({ label: `${type} delivered` }),
      ),
      channelTypeMetrics('Failures').map(({ type, metric }) => customMetric(metric, 'channel-worker', stage, 'Sum', five).with({ label: `${type} failed` })),
    ),
  );
  const { webAclName, region, rules } = props.firewall;
  dashboard.addWidgets(
    graph(
      'Link endpoint: requests, 4xx (incl. throttled), 5xx',
      [apiMetric('Count', props.api.name, props.api.stage)],
      [apiMetric('4XXError', props.api.name, props.api.stage), apiMetric('5XXError', props.api.name, props.api.stage)],
    ),
    graph(
      'Link endpoint WAF: blocked requests by rule, allowed',
      rules.map((rule) => wafMetric('BlockedRequests', webAclName, region, rule)),
      [wafMetric('AllowedRequests', webAclName, region, 'ALL')],
    ),
  );
  return dashboard;
}
