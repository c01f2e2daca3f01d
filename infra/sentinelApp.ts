import { Duration, Tags, Validations, type App, type Environment } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { loadStageConfig, type StageConfig } from './config/stageConfig';
import { ComputeStack } from './stacks/ComputeStack';
import { DataStack } from './stacks/DataStack';
import { KeysStack } from './stacks/KeysStack';
import { MessagingStack } from './stacks/MessagingStack';
import { MonitoringStack, type MonitoringStackProps, type WatchedQueue } from './stacks/MonitoringStack';
import { WebStack } from './stacks/WebStack';
import type { WorkQueue } from './constructs/WorkQueue';

/** The stacks of one stage, in deployment order. */
export interface SentinelStacks {
  readonly config: StageConfig;
  readonly keys: KeysStack;
  readonly data: DataStack;
  readonly messaging: MessagingStack;
  readonly web: WebStack;
  readonly compute: ComputeStack;
  readonly monitoring: MonitoringStack;
}

/** How old the oldest message of each work queue may get before its backlog alarm (2 of 3 five-minute periods). */
export const QUEUE_MAX_AGE = {
  // dispatch queues every minute; collect drains a batch in seconds.
  collect: Duration.minutes(10),
  notify: Duration.minutes(15),
  report: Duration.minutes(20),
  // An event's fan-out takes a fraction of a second; one older than this is stuck (its consumer failing or throttled).
  fanout: Duration.minutes(10),
  // A throttled or paced job is re-queued as a new message (delays up to 15 min), so an old one is stuck, not waiting.
  channel: Duration.minutes(20),
  // One delegate takes seconds; 50 keys of one account, one after the other, a few minutes.
  revocations: Duration.minutes(15),
  // A decision older than PROTECTION_DECISION_MAX_AGE_MINUTES (5 by default) is refused by the signer: older units are stuck.
  decisions: Duration.minutes(10),
} as const;

/** How long a queued report may wait before the report queue's age alarm fires. */
export const REPORT_QUEUE_MAX_AGE = QUEUE_MAX_AGE.report;

/**
 * Adds one stage (chosen by the `stage` context key, see `loadStageConfig`) to `app` and checks the
 * whole app with cdk-nag's AWS Solutions pack at synth time. Stacks are named `sentinel-<stage>-*`
 * and are pinned to the stage's `account`/`region` when given (required for testnet and beta);
 * `options.env` is the fallback (the CLI's default account and region).
 *
 * No stack imports another's export: they refer to each other by physical names and SSM parameters
 * (docs/deploy.md, "Safe change paths"). Deployment order is still declared: keys, data, messaging
 * <- web <- compute <- monitoring.
 */
export function buildSentinelApp(app: App, options: { env?: Environment } = {}): SentinelStacks {
  const config = loadStageConfig((key) => app.node.tryGetContext(key));
  const env = config.env ?? options.env;
  const base = { ...(env ? { env } : {}) };
  const name = (part: string): string => `${config.prefix}${part}`;
  const description = (what: string): string => `portfolio-sentinel ${config.stage}: ${what}`;

  const keys = new KeysStack(app, name('keys'), { ...base, config, description: description('owner keys (custody)') });
  const data = new DataStack(app, name('data'), { ...base, config, description: description('tables and link secret') });
  const messaging = new MessagingStack(app, name('messaging'), { ...base, config, description: description('queues and mail configuration') });
  const web = new WebStack(app, name('web'), { ...base, config, data, messaging, description: description('link endpoint, revocation signer') });
  const compute = new ComputeStack(app, name('compute'), {
    ...base,
    config,
    data,
    messaging,
    description: description('schedules, collection and mail pipeline'),
  });
  const monitoring = new MonitoringStack(app, name('monitoring'), {
    ...base,
    config,
    ...monitoredResources(config, messaging),
    description: description('alarms and dashboard'),
  });
  web.addStackDependency(keys, 'the signer role is named in the owner keys policies');
  web.addStackDependency(data);
  web.addStackDependency(messaging);
  compute.addStackDependency(data);
  compute.addStackDependency(messaging);
  compute.addStackDependency(web, 'reads PUBLIC_BASE_URL from the SSM parameter web writes');
  monitoring.addStackDependency(compute);
  monitoring.addStackDependency(web, 'alarms on the link API and its web ACL by name');

  Tags.of(app).add('project', 'portfolio-sentinel');
  Tags.of(app).add('stage', config.stage);
  Tags.of(app).add('owner', config.owner);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { config, keys, data, messaging, web, compute, monitoring };
}

/**
 * What the monitoring stack watches: the functions, the work queues (with their backlog limits),
 * the failure destinations and the SES events topic, by physical name. Shared with
 * `bench/chaosAlarms.ts`, which evaluates the same alarms on the chaos run's metrics.
 */
export function monitoredResources(
  config: StageConfig,
  messaging: MessagingStack,
): Pick<MonitoringStackProps, 'functions' | 'queues' | 'failureQueues' | 'sesEventsTopicName'> {
  const watched = (id: string, work: WorkQueue, maxAge: Duration): WatchedQueue => ({
    id,
    queueName: work.queueName,
    deadLetterQueueName: work.deadLetterQueueName,
    maxAge,
  });
  return {
    functions: [
      'dispatch',
      'collect',
      'notify',
      'channel-fanout',
      'channel-worker',
      'report-dispatch',
      'daily-report',
      'ses-events',
      'revoke-page',
      'revoke-all-page',
      'revoke-all-worker',
      'decision-worker',
      'preferences-page',
      'desk-page',
      'channel-test',
      'sign-revocation',
    ],
    queues: [
      watched('Collect', messaging.collect, QUEUE_MAX_AGE.collect),
      watched('Notify', messaging.notify, QUEUE_MAX_AGE.notify),
      watched('Report', messaging.report, QUEUE_MAX_AGE.report),
      watched('Fanout', messaging.fanout, QUEUE_MAX_AGE.fanout),
      watched('Channel', messaging.channel, QUEUE_MAX_AGE.channel),
      watched('Revocations', messaging.revocations, QUEUE_MAX_AGE.revocations),
      watched('Decisions', messaging.decisions, QUEUE_MAX_AGE.decisions),
    ],
    failureQueues: [
      { id: 'SesEventsFailures', queueName: `${config.prefix}ses-events-failures` },
      { id: 'ReportDispatchFailures', queueName: `${config.prefix}report-dispatch-failures` },
    ],
    sesEventsTopicName: messaging.sesEvents.topicName,
  };
}
