import { ALERT_HISTORY_PREFIX, DELIVERY_HISTORY_PREFIX } from '../../functions/store/accountHistoryRepository';
import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Architecture } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { SnsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { channelSecretPrefix, publicBaseUrlParameter, topicArn } from '../config/resourceNames';
import { CHANNEL_BATCH_SIZE, CHANNEL_WORKER_CONCURRENCY } from '../../functions/services/channels/channelQueueSettings';
import { FANOUT_BATCH_SIZE, FANOUT_CONCURRENCY } from '../../functions/services/notify/fanOutQueueSettings';
import { SECURITY_BOUNCE_DELIVERY_PREFIX } from '../../functions/services/feedback/securityBounceEventId';
import { DESK_OPERATORS_KEY } from '../../functions/store/deskOperatorsRepository';
import { KNOWN_KEYS_PREFIX } from '../../functions/store/knownDelegatesRepository';
import { REPORT_BATCH_SIZE, REPORT_WORKER_CONCURRENCY } from '../../functions/services/report/schedule/reportWorkers';
import type { StageConfig } from '../config/stageConfig';
import { createFailureQueue } from '../constructs/FailureQueue';
import { ScheduledInvoke } from '../constructs/ScheduledInvoke';
import { SentinelFunction } from '../constructs/SentinelFunction';
import type { DataStack } from './DataStack';
import type { MessagingStack } from './MessagingStack';

/** The `accounts` table's key: every UpdateItem names it. */
const ACCOUNT_KEY: string[] = ['address'];

/** Messages per `collect` invocation: 10 accounts at ~2 requests each fit its timeout at its rate. */
export const COLLECT_BATCH_SIZE = 10;
/** Messages per `notify` invocation. */
export const NOTIFY_BATCH_SIZE = 10;
/**
 * `notify` instances at once: SES accepts a per-account sending rate (1/s in the sandbox, tens
 * per second in production); two instances keep well inside it while the queue absorbs bursts.
 */
export const NOTIFY_CONCURRENCY = 2;

/**
 * Asynchronous-invocation settings of the scheduled functions (EventBridge Scheduler invokes them
 * asynchronously). `dispatch` runs every minute and the next run picks up whatever one missed, so
 * a failed or late run is never retried or replayed; `report-dispatch` is idempotent (it queues
 * first, then claims with a conditional write, and deliveries are exactly once), so a failed run
 * gets a couple of retries within a few minutes, then its failure queue (alarmed).
 */
export const ASYNC_INVOKE = {
  dispatch: { retryAttempts: 0, maxEventAge: Duration.seconds(60) },
  reportDispatch: { retryAttempts: 2, maxEventAge: Duration.minutes(5) },
  sesEvents: { retryAttempts: 2, maxEventAge: Duration.hours(6) },
} as const;

export interface ComputeStackProps extends StackProps {
  readonly config: StageConfig;
  readonly data: DataStack;
  readonly messaging: MessagingStack;
}

/**
 * The pipeline: `dispatch` (every minute) -> collect queue -> `collect` -> notify queue -> `notify`
 * (email), and `collect` -> fan-out queue (the same event, as a fan-out job) -> `channel-fanout`
 * (one job per channel taking it) -> channel queue -> `channel-worker` (each sent); `report-dispatch`
 * (every minute) -> report queue -> `daily-report`; `ses-events` (bounces and complaints).
 */
export class ComputeStack extends Stack {
  readonly dispatch: SentinelFunction;
  readonly collect: SentinelFunction;
  readonly notify: SentinelFunction;
  /** The fan-out queue's consumer: each published event expanded into one channel job per channel taking it. */
  readonly channelFanout: SentinelFunction;
  /** The channel queue's worker: Slack, Discord, Telegram, PagerDuty and webhooks. */
  readonly channelWorker: SentinelFunction;
  readonly reportDispatch: SentinelFunction;
  /** The report queue's worker. */
  readonly dailyReport: SentinelFunction;
  readonly sesEvents: SentinelFunction;
  /** Bounce/complaint events `ses-events` could not record after Lambda's retries. */
  readonly sesEventsFailures: Queue;
  /** `report-dispatch` runs that failed after their retries or grew too old. */
  readonly reportDispatchFailures: Queue;
  readonly dispatchSchedule: ScheduledInvoke;
  readonly reportDispatchSchedule: ScheduledInvoke;

  constructor(scope: Construct, id: string, props: ComputeStackProps) {
    super(scope, id, props);
    const { config, data, messaging } = props;
    const table = data.tables.get.bind(data.tables);
    const renderArchitecture = config.renderArchitecture === 'arm64' ? Architecture.ARM_64 : Architecture.X86_64;
    // A custom domain is a literal; otherwise the API endpoint, read at deploy time from the web
    // stack's SSM parameter: no export that a later domain change would have to delete.
    const publicBaseUrl = config.domain ? `https://${config.domain.name}` : StringParameter.valueForStringParameter(this, publicBaseUrlParameter(config.stage));

    this.dispatch = new SentinelFunction(this, 'Dispatch', {
      handler: 'dispatch',
      config,
      description: 'Every minute: finds the accounts due for a poll (GSI byNextDue) and queues them for collect.',
    });
    this.dispatch
      .bindTable(table('accounts'), 'read')
      // Claims a pending poll (nextDueAt, schedule slot) and advances the dispatch cursor item: nothing else of an account.
      .bindUpdateItem(table('accounts'), ACCOUNT_KEY.concat(['nextDueAt', 'slotCadence', 'slotMinute', 'dispatchedThrough']))
      .bindQueue(messaging.collect, 'COLLECT_QUEUE_URL')
      .bindBackfillBudget(Math.floor(config.rate.collectConcurrency * config.rate.collectRps * 100) / 100);
    this.dispatch.fn.configureAsyncInvoke(ASYNC_INVOKE.dispatch);
    this.dispatchSchedule = new ScheduledInvoke(this, 'DispatchSchedule', {
      scheduleName: `${config.prefix}dispatch`,
      description: 'Fires dispatch every minute',
      every: Duration.minutes(1),
      target: this.dispatch.fn,
      retryAttempts: 0, // the next minute's run picks up whatever this one missed
      maxEventAge: Duration.minutes(1),
    });

    this.collect = new SentinelFunction(this, 'Collect', {
      handler: 'collect',
      config,
      description: 'Polls the chain for each queued account, stores curves and snapshots, evaluates alerts.',
    });
    this.collect
      .bindTables(table, ['accounts', 'curves', 'snapshots', 'alerts', 'delegates'], 'read')
      // An account's health and delegate mark only: never its recipients, signer or settings.
      .bindUpdateItem(
        table('accounts'),
        ACCOUNT_KEY.concat(['delegateMark', 'status', 'statusReason', 'consecutiveErrors', 'consecutiveEmptyPolls', 'polled', 'lastFailure']),
      )
      // Curve buckets are updated in place (BatchWriteItem kept for bulk curve writes); snapshots and alert states put; no deletes anywhere.
      .bindTableActions(table('curves'), ['dynamodb:UpdateItem', 'dynamodb:BatchWriteItem'])
      .bindTableActions(table('snapshots'), ['dynamodb:PutItem'])
      .bindTableActions(table('alerts'), ['dynamodb:PutItem'])
      // The account's alert history: the levels that fired or recovered, put once their state is stored; never a delivery.
      .bindTableActions(table('history'), ['dynamodb:PutItem'], { leadingKeys: [`${ALERT_HISTORY_PREFIX}*`] })
      // Delegates: its views and working state under each account (`0x…` partitions); a known key only put,
      // once, under `known#<account>` (never updated or deleted); no announcement (`expect#…`: the operator's CLI alone).
      .bindTableActions(table('delegates'), ['dynamodb:UpdateItem', 'dynamodb:BatchWriteItem'], { leadingKeys: ['0x*'] })
      .bindTableActions(table('delegates'), ['dynamodb:PutItem'], { leadingKeys: [`${KNOWN_KEYS_PREFIX}*`] })
      // Each event is published twice: to the notify queue (email) and, as a fan-out job, to the fan-out queue.
      .bindQueue(messaging.notify, 'NOTIFY_QUEUE_URL')
      .bindQueue(messaging.fanout, 'FANOUT_QUEUE_URL')
      // The protection service: writes each decision once (conditional put on `decision#<id>`, read back
      // by a redelivered check, never updated or deleted; no link token) and queues one unit per delegate.
      // It reads the signer's per-delegate results (an unknown key refused is judged again) and writes
      // none; the caps and the breaker are the signer's own `tokens` items, which it can neither read nor write.
      .bindTableActions(table('tokens'), ['dynamodb:PutItem', 'dynamodb:GetItem'], { leadingKeys: ['decision#*'] })
      .bindTableActions(table('tokens'), ['dynamodb:GetItem'], { leadingKeys: ['decision-signing#*'] })
      .bindQueue(messaging.decisions, 'DECISION_QUEUE_URL')
      .bindChain(config.chain, config.rate.collectRps)
      .bindProtectionSwitch(data.protectionParameterName)
      .consumeQueue(messaging.collect, { maxConcurrency: config.rate.collectConcurrency, batchSize: COLLECT_BATCH_SIZE });

    this.notify = new SentinelFunction(this, 'Notify', {
      handler: 'notify',
      config,
      description: 'Renders and sends alert emails from the notify queue, exactly once per event.',
      architecture: renderArchitecture,
    });
    this.notify
      .bindTables(table, ['accounts', 'curves', 'snapshots', 'delegates', 'suppressions', 'preferences'], 'read')
      // The onboarding check finds its batch's members by key.
      .bindIndexQuery(table('accounts'), 'byBatch')
      .bindTable(table('deliveries'), 'readWrite')
      // Each copy's outcome, into its account's delivery history: put only, never read, never an alert event.
      .bindTableActions(table('history'), ['dynamodb:PutItem'], { leadingKeys: [`${DELIVERY_HISTORY_PREFIX}*`] })
      // Per-recipient snoozes of a drawdown alert's account: one item read, nothing written.
      .bindTableActions(table('alerts'), ['dynamodb:GetItem'])
      // The onboarding check's channel notice: the channels and their routing (their partition, cached a few
      // seconds), one job per routed channel; never written here. An event's own channel jobs are channel-fanout's.
      .bindTableActions(table('channels'), ['dynamodb:Query'])
      .bindQueue(messaging.channel, 'CHANNEL_QUEUE_URL')
      .bindLinkKeys(data.linkKeys)
      // A notice the breaker stopped also goes to the operators: OPERATOR_EMAIL and the marked ones (one item read).
      .bindTableActions(table('desk'), ['dynamodb:GetItem'], { leadingKeys: [DESK_OPERATORS_KEY] })
      .bindMail(messaging.mail)
      .bindMailRate(NOTIFY_CONCURRENCY)
      .bindPublicBaseUrl(publicBaseUrl)
      .bindRevokeAllLinks()
      .consumeQueue(messaging.notify, { maxConcurrency: NOTIFY_CONCURRENCY, batchSize: NOTIFY_BATCH_SIZE });

    this.channelWorker = new SentinelFunction(this, 'ChannelWorker', {
      handler: 'channel-worker',
      config,
      description: 'Sends each queued notice to its chat, pager or webhook channel once, paced per destination; marks a refusing channel broken.',
    });
    this.channelWorker
      // Reads a channel; records its last delivery, a broken state or a migrated Telegram chat id (conditional updates);
      // takes, reserves and holds a destination's send slots shared by every instance (`pace#<hash>`, conditional updates).
      .bindTableActions(table('channels'), ['dynamodb:GetItem', 'dynamodb:UpdateItem'], { leadingKeys: ['channel', 'pace#*'] })
      // The backlog of a paced chat (notices parked for one summary, and its flush marker): its own partitions only.
      .bindTableActions(table('channels'), ['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:Query', 'dynamodb:BatchWriteItem'], {
        leadingKeys: ['backlog#*', 'backlog-flush'],
      })
      // The pager incidents each channel was sent a trigger for (a resolve goes only there): their own partitions only.
      .bindTableActions(table('channels'), ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem'], { leadingKeys: ['incident#*'] })
      // The delivery id of each (notice, channel), claimed and settled with conditional updates.
      .bindTableActions(table('deliveries'), ['dynamodb:UpdateItem'])
      // Each notice's outcome per channel, into its account's delivery history: put only, never read, never an alert event.
      .bindTableActions(table('history'), ['dynamodb:PutItem'], { leadingKeys: [`${DELIVERY_HISTORY_PREFIX}*`] })
      .bindSecretsUnder(channelSecretPrefix(config.stage))
      // Throttled and paced jobs go back on the queue with a delay.
      .bindQueue(messaging.channel, 'CHANNEL_QUEUE_URL')
      // A channel it marked broken: one message, whose consumer (notify) emails the account's recipients.
      .bindQueue(messaging.notify, 'NOTIFY_QUEUE_URL')
      // A `fanout` job an older producer put on the channel queue (mid-deploy): passed on to the fan-out queue.
      .bindQueue(messaging.fanout, 'FANOUT_QUEUE_URL')
      .consumeQueue(messaging.channel, { maxConcurrency: CHANNEL_WORKER_CONCURRENCY, batchSize: CHANNEL_BATCH_SIZE });
    // Updated after notify in a deploy: a worker's `channel-broken` message must meet a notify that reads it (an older
    // one drops it as malformed).
    this.channelWorker.fn.node.addDependency(this.notify.fn);

    this.channelFanout = new SentinelFunction(this, 'ChannelFanout', {
      handler: 'channel-fanout',
      config,
      description: 'Expands each published event into one job per channel taking it (a drawdown chart drawn once), queued for channel-worker.',
      // The drawdown chart of a fanned-out alert is drawn here (`@resvg/resvg-js`), as in notify.
      architecture: renderArchitecture,
    });
    this.channelFanout
      // The account (one item), the channel list (the `channel` partition, cached a few seconds), the account's
      // channel controls (one item), its curve (the chart) and its delegates (the revoke-all count): read only.
      .bindTableActions(table('accounts'), ['dynamodb:GetItem'])
      .bindTableActions(table('channels'), ['dynamodb:Query'], { leadingKeys: ['channel'] })
      .bindTableActions(table('alerts'), ['dynamodb:GetItem'])
      .bindTableActions(table('curves'), ['dynamodb:Query'])
      .bindTableActions(table('delegates'), ['dynamodb:Query'])
      // The fanned-out notices' revoke, revoke-all and channel links.
      .bindLinkKeys(data.linkKeys)
      .bindPublicBaseUrl(publicBaseUrl)
      .bindRevokeAllLinks()
      .bindQueue(messaging.channel, 'CHANNEL_QUEUE_URL')
      .consumeQueue(messaging.fanout, { maxConcurrency: FANOUT_CONCURRENCY, batchSize: FANOUT_BATCH_SIZE });
    // Consuming before its producers in this stack publish to it (collect) or pass on to it (the channel worker), so no
    // event waits on the fan-out queue for its consumer. The web stack's producers deploy before this stack: on the
    // first deploy their events wait on the queue (4 days' retention) until this function exists.
    this.collect.fn.node.addDependency(this.channelFanout.fn);
    this.channelWorker.fn.node.addDependency(this.channelFanout.fn);

    this.reportDispatch = new SentinelFunction(this, 'ReportDispatch', {
      handler: 'report-dispatch',
      config,
      description:
        'Every minute: claims the reports whose local report time has come (accounts and recipients with their own schedule, GSI byNextReport) and queues one job each.',
    });
    this.reportDispatch
      .bindTable(table('accounts'), 'read')
      // Claims an account's report (nextReportAt) and nothing else of it.
      .bindUpdateItem(table('accounts'), ACCOUNT_KEY.concat(['nextReportAt']))
      // Recipients with a schedule of their own: queried on `byNextReport`, claimed with a conditional UpdateItem of nextReportAt only.
      .bindTableActions(table('preferences'), ['dynamodb:Query'], { indexes: true })
      .bindUpdateItem(table('preferences'), ['email', 'nextReportAt'])
      // A missed report's recipients (who follows the account's schedule, a recipient job's accounts): item reads only.
      .bindTableActions(table('preferences'), ['dynamodb:GetItem', 'dynamodb:BatchGetItem'])
      // A missed report, listed in its accounts' delivery history: put only, never read, never an alert event.
      .bindTableActions(table('history'), ['dynamodb:PutItem'], { leadingKeys: [`${DELIVERY_HISTORY_PREFIX}*`] })
      // The report ledger (jobs claimed) and the missed records, for reconciliation: those items only.
      .bindTableActions(table('deliveries'), ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:UpdateItem'], {
        leadingKeys: ['report-ledger:*', 'report-missed:*'],
      })
      .bindQueue(messaging.report, 'REPORT_QUEUE_URL')
      // The missed-report notice to the operators: OPERATOR_EMAIL and the marked ones (one item read).
      .bindTableActions(table('desk'), ['dynamodb:GetItem'], { leadingKeys: [DESK_OPERATORS_KEY] })
      .bindMail(messaging.mail);
    this.reportDispatchSchedule = new ScheduledInvoke(this, 'ReportDispatchSchedule', {
      scheduleName: `${config.prefix}report-dispatch`,
      description: 'Fires report-dispatch every minute',
      every: Duration.minutes(1),
      target: this.reportDispatch.fn,
      retryAttempts: 0, // the next minute's run picks up whatever this one missed
      maxEventAge: Duration.minutes(1),
    });
    this.reportDispatchFailures = createFailureQueue(this, 'ReportDispatchFailures', `${config.prefix}report-dispatch-failures`);
    this.reportDispatch.fn.configureAsyncInvoke({ ...ASYNC_INVOKE.reportDispatch, onFailure: new SqsDestination(this.reportDispatchFailures) });

    this.dailyReport = new SentinelFunction(this, 'DailyReport', {
      handler: 'daily-report',
      config,
      description: 'Sends the daily reports queued by report-dispatch, once per account and local day, at its share of the mail rate.',
      architecture: renderArchitecture,
    });
    this.dailyReport
      .bindTable(table('accounts'), 'read')
      .bindTables(table, ['curves', 'snapshots', 'delegates', 'suppressions', 'preferences'], 'read')
      .bindTable(table('deliveries'), 'readWrite')
      // Each copy's outcome, into its account's delivery history: put only, never read, never an alert event.
      .bindTableActions(table('history'), ['dynamodb:PutItem'], { leadingKeys: [`${DELIVERY_HISTORY_PREFIX}*`] })
      // An account report's chat notice: one message on the fan-out queue (channel-fanout routes it).
      .bindQueue(messaging.fanout, 'FANOUT_QUEUE_URL')
      // Digests to chat, routed here: the channels (their partition, one Query per digest built), each
      // account's channel controls (a chat's mutes: one item read), and the channel queue.
      .bindTableActions(table('alerts'), ['dynamodb:GetItem'])
      .bindTableActions(table('channels'), ['dynamodb:Query'], { leadingKeys: ['channel'] })
      .bindQueue(messaging.channel, 'CHANNEL_QUEUE_URL')
      .bindChain(config.chain, config.rate.reportInstanceRps)
      .bindLinkKeys(data.linkKeys)
      .bindMail(messaging.mail)
      .bindMailRate(REPORT_WORKER_CONCURRENCY)
      .bindPublicBaseUrl(publicBaseUrl)
      .bindRevokeAllLinks()
      .consumeQueue(messaging.report, { maxConcurrency: REPORT_WORKER_CONCURRENCY, batchSize: REPORT_BATCH_SIZE });
    // Updated after channel-fanout in a deploy: a report's `report` job must meet a fan-out that reads it (an older one
    // drops it as malformed).
    this.dailyReport.fn.node.addDependency(this.channelFanout.fn);

    this.sesEvents = new SentinelFunction(this, 'SesEvents', {
      handler: 'ses-events',
      config,
      description: 'Suppresses addresses that bounced or complained (SES configuration set events via SNS).',
    });
    this.sesEvents
      // Suppresses (PutItem); lifting a suppression is the operator's CLI act, so no DeleteItem.
      .bindTableActions(table('suppressions'), ['dynamodb:PutItem'])
      // A permanent bounce of a security recipient: which accounts it gets security notices for
      // (every account through byNextReport's shards, then BatchGetItem; its opt-outs), read only...
      .bindTableActions(table('accounts'), ['dynamodb:Query', 'dynamodb:BatchGetItem'], { indexes: true })
      .bindTableActions(table('preferences'), ['dynamodb:BatchGetItem'])
      // ...and the operator told once per bounce and address: its own delivery records only.
      .bindTableActions(table('deliveries'), ['dynamodb:UpdateItem'], { leadingKeys: [`${SECURITY_BOUNCE_DELIVERY_PREFIX}*`] })
      // The operators told: OPERATOR_EMAIL and the marked ones (one item read).
      .bindTableActions(table('desk'), ['dynamodb:GetItem'], { leadingKeys: [DESK_OPERATORS_KEY] })
      // Each copy's outcome, into its account's delivery history: put only, never read, never an alert event.
      .bindTableActions(table('history'), ['dynamodb:PutItem'], { leadingKeys: [`${DELIVERY_HISTORY_PREFIX}*`] })
      .bindMail(messaging.mail);
    this.sesEvents.fn.addEventSource(new SnsEventSource(Topic.fromTopicArn(this, 'SesEventsTopic', topicArn(this, messaging.sesEvents.topicName))));
    // SNS invokes asynchronously: an event still failing after Lambda's retries is kept here (and
    // alarmed on) instead of being dropped, so no bounce or complaint is lost.
    this.sesEventsFailures = createFailureQueue(this, 'SesEventsFailures', `${config.prefix}ses-events-failures`);
    this.sesEvents.fn.configureAsyncInvoke({ ...ASYNC_INVOKE.sesEvents, onFailure: new SqsDestination(this.sesEventsFailures) });
  }
}
