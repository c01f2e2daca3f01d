import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { HANDLER_CATALOG, HANDLER_NAMES } from '../../../functions/config/handlerCatalog';
import { LINK_PURPOSES } from '../../../functions/domain/linkClaims';
import { FUNCTION_SIZING } from '../../../infra/config/functionSizing';
import { VISIBILITY_FACTOR } from '../../../infra/constructs/WorkQueue';
import { MAX_RECEIVE_COUNT } from '../../../infra/stacks/MessagingStack';
import { IDENTITY_DEFAULT_FUNCTION } from '../../../infra/constructs/MailSender';
import { REPORT_BATCH_SIZE, REPORT_WORKER_CONCURRENCY } from '../../../functions/services/report/schedule/reportWorkers';
import { CHANNEL_BATCH_SIZE, CHANNEL_QUEUE, CHANNEL_WORKER_CONCURRENCY } from '../../../functions/services/channels/channelQueueSettings';
import { FANOUT_BATCH_SIZE, FANOUT_CONCURRENCY, FANOUT_QUEUE } from '../../../functions/services/notify/fanOutQueueSettings';
import { REVOCATION_MAX_RECEIVE_COUNT, REVOCATION_QUEUE } from '../../../functions/services/revocation/revocationQueueSettings';
import { TABLES } from '../../../functions/store/tableDefinitions';
import { CHANNEL_TYPES } from '../../../functions/domain/channel';
import { channelTypeMetric } from '../../../functions/services/channels/channelTypeMetric';
import { worstCaseRps } from '../../../infra/config/chainRateBudget';
import { STAGE_ENV } from '../../../infra/constructs/SentinelFunction';
import {
  DECISION_WORKER_CONCURRENCY,
  LINK_ENDPOINT_THROTTLE,
  LINK_ROUTES,
  REVOKE_PAGE_CONCURRENCY,
  revokeAllWorkerConcurrency,
} from '../../../infra/stacks/WebStack';
import { DECISION_BATCH_SIZE, DECISION_MAX_RECEIVE_COUNT, DECISION_QUEUE } from '../../../functions/services/protection/decisionQueueSettings';
import { ANONYMOUS_POST_RATE_LIMIT, DESK_SIGN_IN_RATE_LIMIT, DESK_URI, LINK_FIREWALL_RULES, WELL_FORMED_TOKEN } from '../../../infra/constructs/LinkFirewall';
import { junkClientsToBlockConfirm } from '../../support/infra/floodArithmetic';
import { LINK_API_STAGE } from '../../../infra/config/resourceNames';
import { LINK_RATE_WINDOW_SECONDS } from '../../../infra/config/stageConfig';
import { CHAIN_POLL_FAILURE_ALARM, LINK_FLOOD_BLOCKED_ALARM, MAIL_THROTTLED_ALARM } from '../../../infra/stacks/MonitoringStack';
import { series, simulateAlarm, type AlarmMetric, type RawPoint, type SimulatedAlarm } from '../../../infra/monitoring/alarmSimulator';
import { TEST_ACCOUNT, TEST_REGION, resolveIntrinsics } from '../../support/infra/policyEvaluator';
import { STACK_PARTS, TEST_CONTEXT, synthStage, type SynthResult, type TemplateJson } from '../../support/infra/synthStage';
import { benchBundle } from '../../support/infra/benchBundles';

let synth: SynthResult;
// Bundling every function of the catalog takes minutes on a loaded 2-core machine.
beforeAll(() => {
  // Schema validation is slow to load and runs in stages.test.ts; everything else here is real.
  synth = synthStage(TEST_CONTEXT, { schemaValidation: false });
}, 600_000);

type Resource = TemplateJson['Resources'][string];
function resourcesOf(type: string): [string, Resource][] {
  return STACK_PARTS.flatMap((part) => Object.entries(synth.json[part].Resources).filter(([, r]) => r.Type === type));
}
function props(r: Resource): Record<string, unknown> {
  return r.Properties ?? {};
}
function functionNamed(name: string): Resource {
  const found = resourcesOf('AWS::Lambda::Function').find(([, r]) => props(r)['FunctionName'] === `sentinel-devnet-${name}`);
  if (!found) throw new Error(`no function ${name}`);
  return found[1];
}
function logicalIdOfFunction(name: string): string {
  const found = resourcesOf('AWS::Lambda::Function').find(([, r]) => props(r)['FunctionName'] === `sentinel-devnet-${name}`);
  if (!found) throw new Error(`no function ${name}`);
  return found[0];
}

describe('tables', () => {
  it('creates one table per shared definition, and nothing else', () => {
    expect(resourcesOf('AWS::DynamoDB::GlobalTable')).toHaveLength(Object.keys(TABLES).length);
  });

  it('no index projects whole items: each one KEYS_ONLY or INCLUDE of what its queries read', () => {
    const indexes = resourcesOf('AWS::DynamoDB::GlobalTable').flatMap(
      ([, r]) => (props(r)['GlobalSecondaryIndexes'] ?? []) as { IndexName: string; Projection: { ProjectionType: string } }[],
    );
    expect(indexes.map((i) => i.IndexName).sort()).toEqual(['byBatch', 'byNextDue', 'byNextReport', 'byNextReport', 'bySlot', 'decisionsByAccount']); // accounts' four, preferences' recipients index, tokens' decisions
    for (const index of indexes) expect(['KEYS_ONLY', 'INCLUDE'], index.IndexName).toContain(index.Projection.ProjectionType);
  });

  it.each(Object.values(TABLES))('$id: keys, indexes, TTL, on-demand, PITR, encryption, deletion protection, retained', (definition) => {
    const keySchema = [
      { AttributeName: definition.partitionKey.name, KeyType: 'HASH' },
      ...(definition.sortKey ? [{ AttributeName: definition.sortKey.name, KeyType: 'RANGE' }] : []),
    ];
    synth.templates.data.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        TableName: `sentinel-devnet-${definition.id}`,
        KeySchema: keySchema,
        BillingMode: 'PAY_PER_REQUEST',
        SSESpecification: { SSEEnabled: true, SSEType: 'KMS' },
        TimeToLiveSpecification: definition.ttlAttribute ? { AttributeName: definition.ttlAttribute, Enabled: true } : Match.absent(),
        GlobalSecondaryIndexes: definition.globalIndexes
          ? definition.globalIndexes.map((index) => ({
              IndexName: index.indexName,
              KeySchema: [
                { AttributeName: index.partitionKey.name, KeyType: 'HASH' },
                ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: 'RANGE' }] : []),
              ],
              Projection:
                index.projection.type === 'KEYS_ONLY'
                  ? { ProjectionType: 'KEYS_ONLY' }
                  : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection.attributes] },
            }))
          : Match.absent(),
        Replicas: [
          Match.objectLike({
            PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
            DeletionProtectionEnabled: true,
          }),
        ],
      },
    });
  });
});

describe('queues', () => {
  const queues = (): Resource[] => resourcesOf('AWS::SQS::Queue').map(([, r]) => r);

  it('encrypts every queue, dead-letter queue and failure queue (SSE-SQS)', () => {
    // collect, notify, report, fanout, channel, revocations.fifo, decisions.fifo and their DLQs; the ses-events and daily-report failure queues.
    expect(queues().length).toBe(16);
    for (const q of queues()) expect(props(q)['SqsManagedSseEnabled']).toBe(true);
  });

  it('denies every non-TLS request to every queue', () => {
    const policies = resourcesOf('AWS::SQS::QueuePolicy').map(([, r]) => props(r));
    expect(policies).toHaveLength(16);
    for (const policy of policies) {
      expect(policy['PolicyDocument']).toMatchObject({
        Statement: expect.arrayContaining([
          expect.objectContaining({ Effect: 'Deny', Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      });
    }
  });

  it.each([
    ['collect', 'collect', MAX_RECEIVE_COUNT],
    ['notify', 'notify', MAX_RECEIVE_COUNT],
    ['report', 'daily-report', MAX_RECEIVE_COUNT],
    ['fanout', 'channel-fanout', FANOUT_QUEUE.maxReceiveCount],
    ['channel', 'channel-worker', CHANNEL_QUEUE.maxReceiveCount],
    ['revocations.fifo', 'revoke-all-worker', REVOCATION_MAX_RECEIVE_COUNT],
    ['decisions.fifo', 'decision-worker', DECISION_MAX_RECEIVE_COUNT],
  ] as const)('%s: dead-letter after its receive count, visibility >= 6x its consumer (%s) timeout', (queue, consumer, receives) => {
    const found = queues().find((q) => props(q)['QueueName'] === `sentinel-devnet-${queue}`);
    expect(found).toBeDefined();
    const p = props(found as Resource);
    expect(p['RedrivePolicy']).toMatchObject({ maxReceiveCount: receives });
    const consumerTimeout = props(functionNamed(consumer))['Timeout'] as number;
    expect(consumerTimeout).toBe(FUNCTION_SIZING[consumer].timeout.toSeconds());
    expect(p['VisibilityTimeout'] as number).toBeGreaterThanOrEqual(VISIBILITY_FACTOR * consumerTimeout);
  });

  it.each([
    ['collect', ''],
    ['notify', ''],
    ['report', ''],
    ['fanout', ''],
    ['channel', ''],
    ['revocations', '.fifo'],
    ['decisions', '.fifo'],
  ])('%s: its dead-letter queue accepts dead letters from it alone (redrive-allow policy)', (queue, suffix) => {
    const dlq = queues().find((q) => props(q)['QueueName'] === `sentinel-devnet-${queue}-dlq${suffix}`);
    const policy = resolveIntrinsics(props(dlq as Resource)['RedriveAllowPolicy']);
    expect(policy).toEqual({ redrivePermission: 'byQueue', sourceQueueArns: [`arn:aws:sqs:${TEST_REGION}:${TEST_ACCOUNT}:sentinel-devnet-${queue}${suffix}`] });
    const source = queues().find((q) => props(q)['QueueName'] === `sentinel-devnet-${queue}${suffix}`);
    expect(JSON.stringify(props(source as Resource)['RedrivePolicy'])).toContain('DeadLetter');
  });

  it("makes the revocations and decisions queues FIFO with FIFO dead-letter queues, deduplicated by the producer's id (no content-based deduplication)", () => {
    for (const name of ['revocations.fifo', 'revocations-dlq.fifo', 'decisions.fifo', 'decisions-dlq.fifo']) {
      const found = queues().find((q) => props(q)['QueueName'] === `sentinel-devnet-${name}`);
      expect(props(found as Resource), name).toMatchObject({ FifoQueue: true, ContentBasedDeduplication: false });
    }
    for (const name of ['collect', 'notify', 'report', 'fanout', 'channel']) {
      expect(props(queues().find((q) => props(q)['QueueName'] === `sentinel-devnet-${name}`) as Resource)['FifoQueue'], name).toBeUndefined();
    }
  });

  it('sizes the fan-out, channel and revocations queues from the settings the local queues read too', () => {
    const find = (name: string): Record<string, unknown> => props(queues().find((q) => props(q)['QueueName'] === `sentinel-devnet-${name}`) as Resource);
    expect(find('fanout')['VisibilityTimeout']).toBe(FANOUT_QUEUE.visibilityTimeoutSeconds);
    expect(FANOUT_QUEUE.consumerTimeoutSeconds).toBe(FUNCTION_SIZING['channel-fanout'].timeout.toSeconds());
    expect(find('channel')['VisibilityTimeout']).toBe(CHANNEL_QUEUE.visibilityTimeoutSeconds);
    expect(CHANNEL_QUEUE.consumerTimeoutSeconds).toBe(FUNCTION_SIZING['channel-worker'].timeout.toSeconds());
    expect(find('revocations.fifo')['VisibilityTimeout']).toBe(REVOCATION_QUEUE.visibilityTimeoutSeconds);
    expect(REVOCATION_QUEUE.consumerTimeoutSeconds).toBe(FUNCTION_SIZING['revoke-all-worker'].timeout.toSeconds());
    expect(find('decisions.fifo')['VisibilityTimeout']).toBe(DECISION_QUEUE.visibilityTimeoutSeconds);
    expect(DECISION_QUEUE.consumerTimeoutSeconds).toBe(FUNCTION_SIZING['decision-worker'].timeout.toSeconds());
  });
});

describe('functions', () => {
  it('creates one function per handler of the catalog, each on Node 22, and only the named deploy-time provider besides', () => {
    const all = resourcesOf('AWS::Lambda::Function').map(([, r]) => props(r));
    // The one exemption, by name: aws-cdk-lib's AwsCustomResource provider that makes the configuration
    // set the SES identity's default. CloudFormation runs it at deploy time only; its runtime is
    // aws-cdk-lib's choice; its role is tested in permissions.test.ts.
    const provider = all.filter((f) => f['FunctionName'] === `sentinel-devnet-${IDENTITY_DEFAULT_FUNCTION}`);
    expect(provider).toHaveLength(1);
    const fns = all.filter((f) => !provider.includes(f));
    expect(fns.map((f) => f['FunctionName']).sort()).toEqual(HANDLER_NAMES.map((n) => `sentinel-devnet-${n}`).sort());
    for (const f of fns) {
      expect(f['Runtime']).toBe('nodejs22.x');
      expect(f['Handler']).toBe('index.handler');
    }
  });

  it('runs every function on ARM64, the renderers with the native chart library included', () => {
    for (const name of HANDLER_NAMES) expect(props(functionNamed(name))['Architectures'], name).toEqual(['arm64']);
  });

  it('gives each function its own log group with the stage retention', () => {
    const groups = new Map(resourcesOf('AWS::Logs::LogGroup').map(([id, r]) => [id, props(r)]));
    for (const name of HANDLER_NAMES) {
      const ref = (props(functionNamed(name))['LoggingConfig'] as { LogGroup: { Ref: string } }).LogGroup.Ref;
      expect(groups.get(ref)?.['RetentionInDays'], name).toBe(30);
    }
    const refs = HANDLER_NAMES.map((n) => (props(functionNamed(n))['LoggingConfig'] as { LogGroup: { Ref: string } }).LogGroup.Ref);
    expect(new Set(refs).size).toBe(HANDLER_NAMES.length);
  });

  it('sets the Powertools environment and the stage (metric dimension) on every function', () => {
    for (const name of HANDLER_NAMES) {
      expect(props(functionNamed(name))['Environment'], name).toMatchObject({
        Variables: { POWERTOOLS_SERVICE_NAME: name, POWERTOOLS_METRICS_NAMESPACE: 'PortfolioSentinel', POWERTOOLS_LOG_LEVEL: 'INFO', [STAGE_ENV]: 'devnet' },
      });
    }
  });

  it('logs JSON with levels through the Lambda logging config, tracing off unless the stage turns it on', () => {
    for (const name of HANDLER_NAMES) {
      expect(props(functionNamed(name))['LoggingConfig'], name).toMatchObject({ LogFormat: 'JSON', ApplicationLogLevel: 'INFO', SystemLogLevel: 'WARN' });
      // Tracing off: no TracingConfig at all (PassThrough would still propagate upstream sampling).
      expect(props(functionNamed(name))['TracingConfig'], name).toBeUndefined();
    }
  });

  it('tags every function for cost allocation: project, stage, owner', () => {
    for (const name of HANDLER_NAMES) {
      const tags = Object.fromEntries((props(functionNamed(name))['Tags'] as { Key: string; Value: string }[]).map((t) => [t.Key, t.Value]));
      expect(tags, name).toMatchObject({ project: 'portfolio-sentinel', stage: 'devnet', owner: synth.stacks.config.owner });
    }
  });

  it('sets exactly the runtime configuration each handler reads', () => {
    const vars = (name: string): string[] =>
      Object.keys((props(functionNamed(name))['Environment'] as { Variables: Record<string, unknown> }).Variables)
        .filter((k) => !k.startsWith('POWERTOOLS_') && k !== 'NODE_OPTIONS' && k !== STAGE_ENV)
        .sort();
    expect(vars('dispatch')).toEqual(['CHAIN_RPS', 'COLLECT_QUEUE_URL', 'SENTINEL_TABLE_PREFIX']);
    // Every function that sends mail may tell the operator: bindMail sets OPERATOR_EMAIL beside MAIL_FROM.
    const mail = ['MAIL_FROM', 'OPERATOR_EMAIL', 'SES_CONFIGURATION_SET'];
    expect(vars('report-dispatch')).toEqual([...mail, 'REPORT_QUEUE_URL', 'SENTINEL_TABLE_PREFIX'].sort());
    expect(vars('collect')).toEqual([
      'CHAIN_RPS',
      'DECISION_QUEUE_URL',
      'FANOUT_QUEUE_URL',
      'NOTIFY_QUEUE_URL',
      'PROTECTION_PARAMETER_NAME',
      'ROCKET_INDEXER_URL',
      'ROCKET_NODE_URL',
      'SENTINEL_TABLE_PREFIX',
    ]);
    const mailer = [
      'LINK_KEY_SECRET_PREFIX',
      'MAIL_FROM',
      'MAIL_RATE_WORKERS',
      'OPERATOR_EMAIL',
      'PUBLIC_BASE_URL',
      'REVOKE_ALL_LINKS',
      'SENTINEL_TABLE_PREFIX',
      'SES_CONFIGURATION_SET',
      'TEMPLATES_DIR',
    ];
    expect(vars('notify')).toEqual(['CHANNEL_QUEUE_URL', ...mailer].sort());
    expect(vars('daily-report')).toEqual(['CHAIN_RPS', 'CHANNEL_QUEUE_URL', 'FANOUT_QUEUE_URL', ...mailer, 'ROCKET_INDEXER_URL', 'ROCKET_NODE_URL'].sort());
    // No mail settings: a channel it marks broken goes to the notify queue, whose consumer emails it. No links: the fan-out's.
    expect(vars('channel-worker')).toEqual(['CHANNEL_QUEUE_URL', 'FANOUT_QUEUE_URL', 'NOTIFY_QUEUE_URL', 'SENTINEL_TABLE_PREFIX']);
    expect(vars('channel-fanout')).toEqual(['CHANNEL_QUEUE_URL', 'LINK_KEY_SECRET_PREFIX', 'PUBLIC_BASE_URL', 'REVOKE_ALL_LINKS', 'SENTINEL_TABLE_PREFIX']);
    expect(vars('revoke-page')).toEqual([
      'CSRF_SECRET_ARN',
      'LINK_PUBLIC_KEYS_PARAMETER',
      'PUBLIC_BASE_URL',
      'SENTINEL_TABLE_PREFIX',
      'SIGN_REVOCATION_FUNCTION_NAME',
    ]);
    expect(vars('revoke-all-page')).toEqual([
      'CSRF_SECRET_ARN',
      'LINK_PUBLIC_KEYS_PARAMETER',
      'PUBLIC_BASE_URL',
      'REVOCATION_QUEUE_URL',
      'SENTINEL_TABLE_PREFIX',
    ]);
    expect(vars('revoke-all-worker')).toEqual([
      'FANOUT_QUEUE_URL',
      'NOTIFY_QUEUE_URL',
      'PROTECTION_PARAMETER_NAME',
      'SENTINEL_TABLE_PREFIX',
      'SIGN_REVOCATION_FUNCTION_NAME',
    ]);
    expect(vars('decision-worker')).toEqual(['SIGN_REVOCATION_FUNCTION_NAME']);
    // What a page signed in by link reads: its links' keys, the anti-CSRF secret, and the mail it sends.
    const page = [
      'CSRF_SECRET_ARN',
      'LINK_KEY_SECRET_PREFIX',
      'LINK_PUBLIC_KEYS_PARAMETER',
      'MAIL_FROM',
      'OPERATOR_EMAIL',
      'PUBLIC_BASE_URL',
      'SENTINEL_TABLE_PREFIX',
      'SES_CONFIGURATION_SET',
    ];
    expect(vars('preferences-page')).toEqual(page);
    expect(vars('sign-revocation')).toEqual([
      'CHAIN_RPS',
      'FANOUT_QUEUE_URL',
      // The published public keys of revoke and revoke-all: it verifies a click's link itself (no CSRF secret).
      'LINK_PUBLIC_KEYS_PARAMETER',
      'NOTIFY_QUEUE_URL',
      'PROTECTION_PARAMETER_NAME',
      'ROCKET_INDEXER_URL',
      'ROCKET_NODE_URL',
      'SENTINEL_TABLE_PREFIX',
    ]);
    expect(vars('ses-events')).toEqual([...mail, 'SENTINEL_TABLE_PREFIX'].sort());
    // And the desk: the Test button's private function, invoked by name (it reads no channel secret itself), and its assets.
    expect(vars('desk-page')).toEqual([...page, 'CHANNEL_TEST_FUNCTION_NAME', 'DESK_ASSETS_DIR'].sort());
    // The channels' secrets are read by reference (`secret:<name>` on the channel): no variable names one.
    expect(vars('channel-test')).toEqual(['SENTINEL_TABLE_PREFIX']);
  });

  it('points at the stage chain, table prefix, sender and the signer by name', () => {
    const env = (name: string): Record<string, unknown> => (props(functionNamed(name))['Environment'] as { Variables: Record<string, unknown> }).Variables;
    expect(env('collect')).toMatchObject({
      ROCKET_NODE_URL: 'https://devnet.rocket-cluster-1.com',
      ROCKET_INDEXER_URL: 'https://devnet.rocket-cluster-1.com/indexer',
      SENTINEL_TABLE_PREFIX: 'sentinel-devnet-',
    });
    for (const name of ['notify', 'daily-report', 'preferences-page', 'report-dispatch', 'ses-events'])
      expect(env(name)['OPERATOR_EMAIL'], name).toBe(TEST_CONTEXT.alarmEmail);
    expect(env('notify')).toMatchObject({
      OPERATOR_EMAIL: TEST_CONTEXT.alarmEmail,
      MAIL_FROM: TEST_CONTEXT.mailFrom,
      SES_CONFIGURATION_SET: 'sentinel-devnet-mail',
      TEMPLATES_DIR: '/var/task/templates',
    });
    expect(env('revoke-page')['SIGN_REVOCATION_FUNCTION_NAME']).toEqual({ Ref: logicalIdOfFunction('sign-revocation') });
    expect(env('revoke-all-worker')['SIGN_REVOCATION_FUNCTION_NAME']).toEqual({ Ref: logicalIdOfFunction('sign-revocation') });
    expect(env('desk-page')['CHANNEL_TEST_FUNCTION_NAME']).toEqual({ Ref: logicalIdOfFunction('channel-test') });
    // The mailers write revoke-all links: the stage routes /revoke-all.
    expect(env('notify')['REVOKE_ALL_LINKS']).toBe('true');
    expect(env('daily-report')['REVOKE_ALL_LINKS']).toBe('true');
    for (const name of ['collect', 'sign-revocation', 'revoke-all-worker'])
      expect(env(name)['PROTECTION_PARAMETER_NAME'], name).toBe('/sentinel/devnet/protection');
    // The secrets by name (GetSecretValue takes a name): no export of their random ARN suffix.
    expect(env('notify')['LINK_KEY_SECRET_PREFIX']).toBe('sentinel-devnet-link-key-');
    expect(env('revoke-page')).toMatchObject({
      CSRF_SECRET_ARN: 'sentinel-devnet-csrf-secret',
      LINK_PUBLIC_KEYS_PARAMETER: '/sentinel/devnet/link-public-keys',
    });
  });

  it('splits the chain budget: every chain caller capped, instances x CHAIN_RPS summed <= chainRps', () => {
    const rate = synth.stacks.config.rate;
    const chainRps = (name: string): number =>
      Number((props(functionNamed(name))['Environment'] as { Variables: Record<string, string> }).Variables['CHAIN_RPS']);
    const callers = HANDLER_NAMES.filter(
      (name) => 'ROCKET_NODE_URL' in (props(functionNamed(name))['Environment'] as { Variables: Record<string, unknown> }).Variables,
    );
    expect(callers.sort()).toEqual(['collect', 'daily-report', 'sign-revocation']);
    expect(chainRps('daily-report')).toBe(rate.reportInstanceRps);
    const mapping = resourcesOf('AWS::Lambda::EventSourceMapping').find(([, r]) =>
      JSON.stringify(props(r)['FunctionName']).includes(logicalIdOfFunction('collect')),
    );
    const collectInstances = (props(mapping?.[1] as Resource)['ScalingConfig'] as { MaximumConcurrency: number }).MaximumConcurrency;
    const signerInstances = props(functionNamed('sign-revocation'))['ReservedConcurrentExecutions'] as number;
    expect(signerInstances).toBe(rate.signerConcurrency);
    expect(
      collectInstances * chainRps('collect') + signerInstances * chainRps('sign-revocation') + rate.reportConcurrency * chainRps('daily-report'),
    ).toBeLessThanOrEqual(rate.totalRps);
    expect(worstCaseRps(rate)).toBeLessThanOrEqual(rate.totalRps);
    expect(chainRps('collect')).toBeGreaterThan(0);
    expect(chainRps('sign-revocation')).toBeGreaterThan(0);
  });
});

describe('deploy order', () => {
  it('updates notify before the channel worker, which queues it a message kind an older notify would drop', () => {
    const worker = functionNamed('channel-worker') as Resource & { DependsOn?: string[] };
    expect(worker.DependsOn).toContain(logicalIdOfFunction('notify'));
  });

  it('creates the fan-out and its event source before collect and the report worker publish to its queue and the channel worker passes stray fan-outs on to it', () => {
    const mapping = resourcesOf('AWS::Lambda::EventSourceMapping').find(([, r]) =>
      JSON.stringify(props(r)['FunctionName']).includes(logicalIdOfFunction('channel-fanout')),
    );
    expect(mapping).toBeDefined();
    for (const producer of ['collect', 'daily-report', 'channel-worker'] as const) {
      const dependsOn = (functionNamed(producer) as Resource & { DependsOn?: string[] }).DependsOn ?? [];
      expect(dependsOn, producer).toContain(logicalIdOfFunction('channel-fanout'));
      expect(dependsOn, producer).toContain(mapping?.[0]);
    }
  });
});

describe('schedules', () => {
  it('fires dispatch and report-dispatch every minute, each invoking its own function; no hourly report run is left', () => {
    const schedules = resourcesOf('AWS::Scheduler::Schedule').map(([, r]) => props(r));
    expect(schedules).toHaveLength(2);
    const targetOf = (name: string) => schedules.find((s) => JSON.stringify(s['Target']).includes(logicalIdOfFunction(name)));
    for (const name of ['dispatch', 'report-dispatch']) {
      expect(targetOf(name), name).toMatchObject({
        ScheduleExpression: 'rate(1 minute)',
        Target: { Arn: { 'Fn::GetAtt': [logicalIdOfFunction(name), 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 } },
      });
    }
    expect(targetOf('daily-report')).toBeUndefined();
    for (const s of schedules) expect(s['State']).toBe('ENABLED');
  });
});

describe('event sources', () => {
  it('consumes the collect, notify, report, fan-out and channel queues with partial batch failures and a concurrency cap', () => {
    const mappings = resourcesOf('AWS::Lambda::EventSourceMapping').map(([, r]) => props(r));
    expect(mappings).toHaveLength(7);
    const forFunction = (name: string): Record<string, unknown> | undefined =>
      mappings.find((m) => JSON.stringify(m['FunctionName']).includes(logicalIdOfFunction(name)));
    expect(forFunction('collect')).toMatchObject({
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: synth.stacks.config.rate.collectConcurrency },
      EventSourceArn: expect.anything(),
    });
    expect(forFunction('notify')).toMatchObject({
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: expect.any(Number) },
      EventSourceArn: expect.anything(),
    });
    expect(forFunction('daily-report')).toMatchObject({
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: REPORT_BATCH_SIZE,
      ScalingConfig: { MaximumConcurrency: REPORT_WORKER_CONCURRENCY },
      EventSourceArn: expect.anything(),
    });
    // The report queue by its deterministic name (no cross-stack import).
    expect(JSON.stringify(forFunction('daily-report')?.['EventSourceArn'])).toContain('sentinel-devnet-report');
    expect(forFunction('channel-worker')).toMatchObject({
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: CHANNEL_BATCH_SIZE,
      ScalingConfig: { MaximumConcurrency: CHANNEL_WORKER_CONCURRENCY },
    });
    expect(JSON.stringify(forFunction('channel-worker')?.['EventSourceArn'])).toContain('sentinel-devnet-channel"');
    expect(forFunction('channel-fanout')).toMatchObject({
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: FANOUT_BATCH_SIZE,
      ScalingConfig: { MaximumConcurrency: FANOUT_CONCURRENCY },
    });
    expect(JSON.stringify(forFunction('channel-fanout')?.['EventSourceArn'])).toContain('sentinel-devnet-fanout"');
  });

  it("consumes the revocations FIFO queue one message per invocation, capped by a reserved concurrency below the signer's", () => {
    const mapping = resourcesOf('AWS::Lambda::EventSourceMapping')
      .map(([, r]) => props(r))
      .find((m) => JSON.stringify(m['FunctionName']).includes(logicalIdOfFunction('revoke-all-worker')));
    expect(mapping).toMatchObject({ FunctionResponseTypes: ['ReportBatchItemFailures'], BatchSize: 1 });
    expect(JSON.stringify(mapping?.['EventSourceArn'])).toContain('sentinel-devnet-revocations.fifo');
    const worker = props(functionNamed('revoke-all-worker'))['ReservedConcurrentExecutions'] as number;
    const signer = props(functionNamed('sign-revocation'))['ReservedConcurrentExecutions'] as number;
    expect(worker).toBeGreaterThanOrEqual(1);
    expect(worker).toBeLessThan(signer);
    expect(revokeAllWorkerConcurrency(1)).toBe(1);
    expect(revokeAllWorkerConcurrency(5)).toBe(3);
  });

  it('consumes the decisions FIFO queue one message per invocation with one instance, so automatic work never holds every signer instance', () => {
    const mapping = resourcesOf('AWS::Lambda::EventSourceMapping')
      .map(([, r]) => props(r))
      .find((m) => JSON.stringify(m['FunctionName']).includes(logicalIdOfFunction('decision-worker')));
    expect(mapping).toMatchObject({ FunctionResponseTypes: ['ReportBatchItemFailures'], BatchSize: DECISION_BATCH_SIZE });
    expect(DECISION_BATCH_SIZE).toBe(1);
    expect(JSON.stringify(mapping?.['EventSourceArn'])).toContain('sentinel-devnet-decisions.fifo');
    const decisions = props(functionNamed('decision-worker'))['ReservedConcurrentExecutions'] as number;
    const signer = props(functionNamed('sign-revocation'))['ReservedConcurrentExecutions'] as number;
    expect(decisions).toBe(DECISION_WORKER_CONCURRENCY);
    expect(decisions).toBeLessThan(signer);
    // From 3 signer instances on, both queue workers together leave one for a click on a one-delegate link.
    for (const instances of [3, 4, 10]) expect(revokeAllWorkerConcurrency(instances) + DECISION_WORKER_CONCURRENCY, String(instances)).toBe(instances - 1);
  });

  it('tells each mailer how many of its instances share the mail rate: its event source concurrency', () => {
    const mappings = resourcesOf('AWS::Lambda::EventSourceMapping').map(([, r]) => props(r));
    for (const name of ['notify', 'daily-report']) {
      const mapping = mappings.find((m) => JSON.stringify(m['FunctionName']).includes(logicalIdOfFunction(name)));
      const workers = (props(functionNamed(name))['Environment'] as { Variables: Record<string, string> }).Variables['MAIL_RATE_WORKERS'];
      expect(Number(workers), name).toBe((mapping?.['ScalingConfig'] as { MaximumConcurrency: number }).MaximumConcurrency);
    }
  });

  it('subscribes ses-events to the SES events topic that the configuration set publishes bounces and complaints to', () => {
    synth.templates.messaging.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      EventDestination: { Enabled: true, MatchingEventTypes: ['bounce', 'complaint'], SnsDestination: { TopicARN: Match.anyValue() } },
    });
    const subscription = resourcesOf('AWS::SNS::Subscription').find(([, r]) => props(r)['Protocol'] === 'lambda');
    expect(props(subscription?.[1] as Resource)['Endpoint']).toEqual({ 'Fn::GetAtt': [logicalIdOfFunction('ses-events'), 'Arn'] });
    expect(resolveIntrinsics(props(subscription?.[1] as Resource)['TopicArn'])).toBe(`arn:aws:sns:${TEST_REGION}:${TEST_ACCOUNT}:sentinel-devnet-ses-events`);
  });

  it("makes the configuration set the sending identity's default, so a send naming none still requires TLS", () => {
    const calls = resourcesOf('Custom::AWS').map(([, r]) => props(r));
    expect(calls).toHaveLength(1);
    const call = (key: 'Create' | 'Update' | 'Delete') =>
      JSON.parse(String(calls[0]?.[key])) as { service: string; action: string; parameters: Record<string, string>; physicalResourceId?: { id: string } };
    for (const key of ['Create', 'Update'] as const) {
      expect(call(key), key).toMatchObject({
        service: 'SESV2',
        action: 'PutEmailIdentityConfigurationSetAttributes',
        parameters: { EmailIdentity: 'sentinel.example.com', ConfigurationSetName: 'sentinel-devnet-mail' },
        // Keyed by the identity: renaming the set is an update, never a delete that clears the new default.
        physicalResourceId: { id: 'sentinel.example.com' },
      });
    }
    // Deleting the stage clears the default rather than leaving it naming a deleted set.
    expect(call('Delete')).toEqual({
      service: 'SESV2',
      action: 'PutEmailIdentityConfigurationSetAttributes',
      parameters: { EmailIdentity: 'sentinel.example.com' },
    });
    expect(calls[0]?.['InstallLatestAwsSdk']).toBe(false);
    // Set after the configuration set exists.
    const resource = resourcesOf('Custom::AWS')[0]?.[1] as Resource & { DependsOn?: string[] };
    const set = resourcesOf('AWS::SES::ConfigurationSet')[0]?.[0];
    expect(resource.DependsOn).toContain(set);
  });

  it('counts every sending event (incl. rejects, rendering failures, delivery delays) in CloudWatch, with reputation metrics on', () => {
    synth.templates.messaging.hasResourceProperties('AWS::SES::ConfigurationSet', { ReputationOptions: { ReputationMetricsEnabled: true } });
    // Emails carry bearer links: delivered over TLS or not at all.
    synth.templates.messaging.hasResourceProperties('AWS::SES::ConfigurationSet', { DeliveryOptions: { TlsPolicy: 'REQUIRE' } });
    synth.templates.messaging.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      EventDestination: {
        Enabled: true,
        MatchingEventTypes: Match.arrayWith(['send', 'delivery', 'reject', 'renderingFailure', 'deliveryDelay']),
        CloudWatchDestination: { DimensionConfigurations: [{ DimensionName: 'stage', DimensionValueSource: 'messageTag', DefaultDimensionValue: 'devnet' }] },
      },
    });
  });
});

describe('link endpoint', () => {
  /** `GET /revoke` etc. of every REST API method, from its resource's path part. */
  const methods = (): { key: string; method: Record<string, unknown> }[] =>
    resourcesOf('AWS::ApiGateway::Method').map(([, r]) => {
      const resourceId = (props(r)['ResourceId'] as { Ref: string }).Ref;
      const pathPart = props(synth.json.web.Resources[resourceId] as Resource)['PathPart'];
      return { key: `${String(props(r)['HttpMethod'])} /${String(pathPart)}`, method: props(r) };
    });

  it('routes GET and POST of /revoke, /revoke-all, /unsubscribe, /preferences and /snooze to the three page functions, and /desk and below to desk-page (Lambda proxy)', () => {
    expect(
      methods()
        .map((m) => m.key)
        .sort(),
    ).toEqual([
      'GET /desk',
      'GET /preferences',
      'GET /revoke',
      'GET /revoke-all',
      'GET /snooze',
      'GET /unsubscribe',
      'GET /{proxy+}',
      'POST /desk',
      'POST /preferences',
      'POST /revoke',
      'POST /revoke-all',
      'POST /snooze',
      'POST /unsubscribe',
      'POST /{proxy+}',
    ]);
    expect(LINK_ROUTES['revoke-all']).toBe('revoke-all-page');
    for (const { key, method } of methods()) {
      const path = key.split(' /')[1] ?? '';
      const page = path === 'desk' || path === '{proxy+}' ? 'desk-page' : LINK_ROUTES[path as keyof typeof LINK_ROUTES];
      expect(method['Integration'], key).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' });
      expect(JSON.stringify(method['Integration']), key).toContain(logicalIdOfFunction(page));
      expect(method['AuthorizationType'], key).toBe('NONE');
    }
    // One REST API, regional, and nothing else that answers HTTP.
    expect(resourcesOf('AWS::ApiGateway::RestApi').map(([, r]) => props(r))).toEqual([
      expect.objectContaining({ Name: 'sentinel-devnet-links', EndpointConfiguration: { Types: ['REGIONAL'] } }),
    ]);
    expect(resourcesOf('AWS::ApiGatewayV2::Api')).toEqual([]);
  });

  it.each(['sign-revocation', 'channel-test'] as const)('gives %s no public entry point: no URL, no route, no resource-policy grant', (name) => {
    expect(resourcesOf('AWS::Lambda::Url')).toHaveLength(0);
    const privateFunction = logicalIdOfFunction(name);
    const permissions = resourcesOf('AWS::Lambda::Permission').map(([, r]) => JSON.stringify(props(r)['FunctionName']));
    expect(permissions.some((fn) => fn.includes(privateFunction))).toBe(false);
    expect(methods().some(({ method }) => JSON.stringify(method).includes(privateFunction))).toBe(false);
  });

  it('throttles the stage only (no per-method cap on POST /revoke a flood could fill), and access-logs it without the path or query string', () => {
    const stages = resourcesOf('AWS::ApiGateway::Stage');
    expect(stages).toHaveLength(1);
    const stage = props(stages[0]?.[1] as Resource);
    expect(stage).toMatchObject({
      StageName: LINK_API_STAGE,
      AccessLogSetting: { DestinationArn: expect.anything(), Format: expect.stringContaining('$context.resourcePath') },
    });
    const settings = stage['MethodSettings'] as Record<string, unknown>[];
    expect(settings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          ResourcePath: '/*',
          HttpMethod: '*',
          ThrottlingRateLimit: LINK_ENDPOINT_THROTTLE.rateLimit,
          ThrottlingBurstLimit: LINK_ENDPOINT_THROTTLE.burstLimit,
        }),
      ]),
    );
    expect(settings.filter((setting) => setting['ResourcePath'] !== '/*')).toEqual([]);
    // No execution logging: at INFO it would record query strings (link tokens).
    for (const setting of settings) expect(setting['LoggingLevel'] ?? 'OFF').toBe('OFF');
    const format = (stage['AccessLogSetting'] as { Format: string }).Format;
    expect(format).not.toMatch(/\$context\.(path|querystring|requestOverride)|\$input|\$method\.request/i);
  });

  it('reserves concurrency for revoke-page, and junk needs ten times the clients it did to block a valid confirmation', () => {
    const revokePage = props(functionNamed('revoke-page'))['ReservedConcurrentExecutions'] as number;
    expect(revokePage).toBe(REVOKE_PAGE_CONCURRENCY);
    const stage = props(resourcesOf('AWS::ApiGateway::Stage')[0]?.[1] as Resource);
    const settings = stage['MethodSettings'] as { ResourcePath: string; HttpMethod: string; ThrottlingRateLimit: number }[];
    const after = junkClientsToBlockConfirm({
      waf: synth.stacks.config.linkRateLimit,
      stageRps: settings.find((s) => s.ResourcePath === '/*')?.ThrottlingRateLimit ?? 0,
      revokePostRps: null,
    });
    // The limits before issue 22: stage 20/s, POST /revoke 2/s, every POST counted.
    const before = junkClientsToBlockConfirm({ waf: { requests: 100, posts: 20 }, stageRps: 20, revokePostRps: 2 });
    expect(before).toEqual({ clients: 30, by: 'revoke POST throttle' });
    expect(after).toEqual({ clients: 600, by: 'stage throttle' });
  });

  it("a well-formed token passes the WAF's format rule in a form body and a link's query; junk does not", () => {
    const format = new RegExp(WELL_FORMED_TOKEN);
    const token = `v2.AbCd-_12.${Buffer.from('{"purpose":"revoke"}').toString('base64url')}.${'A'.repeat(85)}w`;
    expect(format.test(new URLSearchParams({ token, csrf: 'x' }).toString())).toBe(true);
    expect(format.test(`csrf=x&token=${encodeURIComponent(token)}`)).toBe(true);
    const v1 = `v1.${Buffer.from('{"purpose":"revoke"}').toString('base64url')}.${'A'.repeat(42)}w`;
    for (const junk of [
      '',
      'token=',
      'token=junk',
      `token=v2.abc.${'A'.repeat(86)}`,
      `token=v2.AbCd-_12.abc.${'A'.repeat(43)}`,
      `token=${v1}`,
      `xtoken=${token}`,
      'List-Unsubscribe=One-Click',
    ]) {
      expect(format.test(junk), junk).toBe(false);
    }
  });

  it('puts a regional WAF web ACL on the stage: IP reputation list, then per-client (IP) rate limits from the stage config, 429 above them', () => {
    const acls = resourcesOf('AWS::WAFv2::WebACL');
    expect(acls).toHaveLength(1);
    const [aclId, acl] = acls[0] as [string, Resource];
    expect(props(acl)).toMatchObject({ Name: 'sentinel-devnet-links', Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
    const rules = props(acl)['Rules'] as Record<string, unknown>[];
    const rule = (name: string): Record<string, unknown> | undefined => rules.find((r) => r['Name'] === name);
    expect(rules.map((r) => [r['Priority'], r['Name']])).toEqual([
      [0, LINK_FIREWALL_RULES.ipReputation],
      [1, LINK_FIREWALL_RULES.anonymousIp],
      [2, LINK_FIREWALL_RULES.malformedPost],
      [3, LINK_FIREWALL_RULES.perClient],
      [4, LINK_FIREWALL_RULES.perClientPosts],
      [5, LINK_FIREWALL_RULES.anonymousPosts],
      [6, LINK_FIREWALL_RULES.deskSignIn],
    ]);
    // The anonymous-IP list only labels (Count); its labels scope a stricter POST rate.
    expect(rule(LINK_FIREWALL_RULES.anonymousIp)).toMatchObject({
      OverrideAction: { Count: {} },
      Statement: { ManagedRuleGroupStatement: { VendorName: 'AWS', Name: 'AWSManagedRulesAnonymousIpList' } },
    });
    expect(rule(LINK_FIREWALL_RULES.anonymousPosts)).toMatchObject({
      Statement: {
        RateBasedStatement: {
          Limit: ANONYMOUS_POST_RATE_LIMIT,
          AggregateKeyType: 'IP',
          ScopeDownStatement: {
            AndStatement: {
              Statements: [
                { ByteMatchStatement: { SearchString: 'POST' } },
                { LabelMatchStatement: { Scope: 'NAMESPACE', Key: 'awswaf:managed:aws:anonymous-ip-list:' } },
              ],
            },
          },
        },
      },
    });
    // A POST with no well-formed token in its body or query is refused (400) before any rate rule counts it.
    const malformed = JSON.stringify(rule(LINK_FIREWALL_RULES.malformedPost));
    expect(rule(LINK_FIREWALL_RULES.malformedPost)).toMatchObject({ Action: { Block: { CustomResponse: { ResponseCode: 400 } } } });
    expect(malformed).toContain('"NotStatement"');
    // The token's two places, and the desk's paths (its forms carry a session's anti-CSRF value instead).
    expect(malformed.match(/"RegexString":"([^"]+)"/g)).toHaveLength(3);
    expect(malformed).toContain(`"UriPath":{}},"RegexString":${JSON.stringify(DESK_URI)}`);
    // Sign-in POSTs to the desk have a per-client rate of their own.
    expect(rule(LINK_FIREWALL_RULES.deskSignIn)).toMatchObject({
      Statement: {
        RateBasedStatement: {
          Limit: DESK_SIGN_IN_RATE_LIMIT,
          AggregateKeyType: 'IP',
          ScopeDownStatement: {
            AndStatement: { Statements: [{ ByteMatchStatement: { SearchString: 'POST' } }, { RegexMatchStatement: { FieldToMatch: { UriPath: {} } } }] },
          },
        },
      },
    });
    expect(malformed).toContain('"Body":{"OversizeHandling":"CONTINUE"}');
    expect(malformed).toContain('"QueryString":{}');
    expect(rule(LINK_FIREWALL_RULES.ipReputation)).toMatchObject({
      OverrideAction: { None: {} },
      Statement: { ManagedRuleGroupStatement: { VendorName: 'AWS', Name: 'AWSManagedRulesAmazonIpReputationList' } },
    });
    const { linkRateLimit } = synth.stacks.config;
    expect(linkRateLimit).toEqual({ requests: 100, posts: 20 }); // the defaults; stages.test.ts synthesizes other values
    const tooMany = { Block: { CustomResponse: { ResponseCode: 429, ResponseHeaders: [{ Name: 'retry-after', Value: String(LINK_RATE_WINDOW_SECONDS) }] } } };
    expect(rule(LINK_FIREWALL_RULES.perClient)).toMatchObject({
      Action: tooMany,
      Statement: { RateBasedStatement: { Limit: linkRateLimit.requests, AggregateKeyType: 'IP', EvaluationWindowSec: LINK_RATE_WINDOW_SECONDS } },
    });
    expect(rule(LINK_FIREWALL_RULES.perClientPosts)).toMatchObject({
      Action: tooMany,
      Statement: {
        RateBasedStatement: {
          Limit: linkRateLimit.posts,
          AggregateKeyType: 'IP',
          ScopeDownStatement: { ByteMatchStatement: { FieldToMatch: { Method: {} }, PositionalConstraint: 'EXACTLY', SearchString: 'POST' } },
        },
      },
    });
    for (const r of rules) expect(r['VisibilityConfig'], String(r['Name'])).toMatchObject({ CloudWatchMetricsEnabled: true, MetricName: r['Name'] });
    // The link token (query string) never reaches WAF's sampled requests; and no full WAF logging.
    expect(props(acl)['DataProtectionConfig']).toEqual({ DataProtections: [{ Field: { FieldType: 'QUERY_STRING' }, Action: 'SUBSTITUTION' }] });
    expect(resourcesOf('AWS::WAFv2::LoggingConfiguration')).toEqual([]);
    // Associated with the API's one stage.
    const associations = resourcesOf('AWS::WAFv2::WebACLAssociation').map(([, r]) => props(r));
    expect(associations).toHaveLength(1);
    expect(associations[0]?.['WebACLArn']).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    const stageId = resourcesOf('AWS::ApiGateway::Stage')[0]?.[0] as string;
    const apiId = resourcesOf('AWS::ApiGateway::RestApi')[0]?.[0] as string;
    const stageArn = JSON.stringify(associations[0]?.['ResourceArn']);
    expect(stageArn).toContain(`{"Ref":"${apiId}"}`);
    expect(stageArn).toContain(`/stages/",{"Ref":"${stageId}"}`);
  });

  it('cannot be reached around the web ACL: the only way to the page functions is the guarded stage', () => {
    // Nothing else answers HTTP: no HTTP API, no function URL, no second stage or deployment target.
    expect(resourcesOf('AWS::ApiGatewayV2::Api')).toEqual([]);
    expect(resourcesOf('AWS::ApiGatewayV2::Stage')).toEqual([]);
    expect(resourcesOf('AWS::Lambda::Url')).toEqual([]);
    expect(resourcesOf('AWS::ApiGateway::Stage')).toHaveLength(1);
    // API Gateway may invoke the page functions from the guarded stage only (no test-invoke grant).
    const apiId = resourcesOf('AWS::ApiGateway::RestApi')[0]?.[0] as string;
    const stageId = resourcesOf('AWS::ApiGateway::Stage')[0]?.[0] as string;
    const grants = resourcesOf('AWS::Lambda::Permission').filter(([, r]) => props(r)['Principal'] === 'apigateway.amazonaws.com');
    expect(grants).toHaveLength(14);
    for (const [id, grant] of grants) {
      const source = JSON.stringify(props(grant)['SourceArn']);
      expect(source, id).toContain(`{"Ref":"${apiId}"}`);
      expect(source, id).toContain(`/",{"Ref":"${stageId}"},"/`);
      expect(source, id).not.toContain('test-invoke-stage');
    }
    // Without a custom domain links use the execute-api endpoint of that stage (stages.test.ts: with one, it is off).
    synth.templates.web.hasResourceProperties('AWS::ApiGateway::RestApi', { DisableExecuteApiEndpoint: false });
  });

  it('hands the stage URL to the mail functions as PUBLIC_BASE_URL through an SSM parameter, not an export', () => {
    const url = (props(functionNamed('notify'))['Environment'] as { Variables: Record<string, unknown> }).Variables['PUBLIC_BASE_URL'] as { Ref: string };
    const parameter = synth.json.compute.Parameters?.[url.Ref];
    expect(parameter).toEqual({ Type: 'AWS::SSM::Parameter::Value<String>', Default: '/sentinel/devnet/public-base-url' });
    const written = resourcesOf('AWS::SSM::Parameter').find(([, r]) => props(r)['Name'] === '/sentinel/devnet/public-base-url');
    const apiId = resourcesOf('AWS::ApiGateway::RestApi')[0]?.[0] as string;
    expect(resolveIntrinsics(props(written?.[1] as Resource)['Value'])).toBe(`https://ref:${apiId}.execute-api.${TEST_REGION}.amazonaws.com/${LINK_API_STAGE}`);
    expect(synth.stacks.compute.dependencies).toContain(synth.stacks.web);
    expect(synth.stacks.web.dependencies).not.toContain(synth.stacks.compute);
  });
});

describe('alarms', () => {
  const alarms = (): Record<string, unknown>[] => resourcesOf('AWS::CloudWatch::Alarm').map(([, r]) => props(r));
  const alarmNamed = (id: string): Record<string, unknown> => {
    const found = alarms().find((a) => a['AlarmName'] === `sentinel-devnet-monitoring-${id}`);
    if (!found) throw new Error(`no alarm ${id}`);
    return found;
  };
  const HOUR = 3600;
  const TWO_DAYS = 48 * HOUR;
  /** A healthy stage whose accounts all poll hourly: they fall due, and are polled, together at the top of the hour. */
  const healthy = (metricName: string): RawPoint[] => {
    switch (metricName) {
      case 'OverdueAccounts':
        return series(0, 60, TWO_DAYS); // dispatch reports every minute; none overdue beyond the grace period
      case 'SuccessfulPolls':
      case 'Polls':
        return series((at) => (at % HOUR < 120 ? 500 : undefined), 60, TWO_DAYS);
      case 'ApproximateAgeOfOldestMessage':
        return series((at) => (at % HOUR < 120 ? 40 : 0), 60, TWO_DAYS);
      case 'ReportLatenessSeconds':
        return series((at) => (at % HOUR < 300 ? 240 : undefined), 60, TWO_DAYS);
      default:
        return series(0, 60, TWO_DAYS); // errors, dead letters, rates, failures: none
    }
  };

  it('alarms on any message in each dead-letter queue and in each asynchronous-invocation failure queue', () => {
    const waiting = alarms().filter((a) => a['MetricName'] === 'ApproximateNumberOfMessagesVisible');
    const queues = waiting.map((a) => (a['Dimensions'] as { Value: string }[])[0]?.Value).sort();
    expect(queues).toEqual(
      [
        'channel-dlq',
        'collect-dlq',
        'decisions-dlq.fifo',
        'fanout-dlq',
        'notify-dlq',
        'report-dispatch-failures',
        'report-dlq',
        'revocations-dlq.fifo',
        'ses-events-failures',
      ].map((q) => `sentinel-devnet-${q}`),
    );
    for (const a of waiting) expect(a).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1 });
  });

  it('alarms on the age of the oldest message of every work queue, 2 of 3 five-minute periods', () => {
    // The decisions queue also has its own, tighter alarm on the oldest waiting decision (below).
    const ages = alarms().filter((a) => a['MetricName'] === 'ApproximateAgeOfOldestMessage' && !String(a['AlarmName']).endsWith('-DecisionWaiting'));
    expect(ages.map((a) => (a['Dimensions'] as { Value: string }[])[0]?.Value).sort()).toEqual(
      ['channel', 'collect', 'decisions.fifo', 'fanout', 'notify', 'report', 'revocations.fifo'].map((q) => `sentinel-devnet-${q}`),
    );
    // Every work queue: every queue a function consumes (its event source), found in the template, not listed by hand.
    const consumed = resourcesOf('AWS::Lambda::EventSourceMapping').map(([, r]) => {
      const arn = JSON.stringify(props(r)['EventSourceArn']);
      const queue = resourcesOf('AWS::SQS::Queue').find(([id, q]) => arn.includes(`"${id}"`) || arn.includes(`:${String(props(q)['QueueName'])}"`));
      return String(props(queue?.[1] as Resource)['QueueName']);
    });
    expect(consumed).toHaveLength(7);
    expect(ages.map((a) => (a['Dimensions'] as { Value: string }[])[0]?.Value).sort()).toEqual(consumed.sort());
    for (const a of ages)
      expect(a).toMatchObject({ Period: 300, EvaluationPeriods: 3, DatapointsToAlarm: 2, Statistic: 'Maximum', TreatMissingData: 'notBreaching' });
  });

  it('gives every scheduled or event-invoked function an explicit asynchronous-invocation config: no silent drop, no stale replay', () => {
    const configs = new Map(
      resourcesOf('AWS::Lambda::EventInvokeConfig').map(([, r]) => {
        const fn = (props(r)['FunctionName'] as { Ref: string }).Ref;
        const name = resourcesOf('AWS::Lambda::Function').find(([id]) => id === fn)?.[1];
        return [String(props(name as Resource)['FunctionName']).replace('sentinel-devnet-', ''), props(r)] as const;
      }),
    );
    expect([...configs.keys()].sort()).toEqual(['dispatch', 'report-dispatch', 'ses-events']);
    // Every function a schedule targets (found in the template, not listed by hand) has one.
    const scheduled = resourcesOf('AWS::Scheduler::Schedule').map(([, r]) => {
      const target = (props(r)['Target'] as { Arn: { 'Fn::GetAtt': [string, string] } }).Arn['Fn::GetAtt'][0];
      return String(props(resourcesOf('AWS::Lambda::Function').find(([id]) => id === target)?.[1] as Resource)['FunctionName']).replace('sentinel-devnet-', '');
    });
    expect(scheduled.sort()).toEqual(['dispatch', 'report-dispatch']);
    for (const name of scheduled) expect(configs.has(name), name).toBe(true);
    expect(configs.get('dispatch')).toMatchObject({ MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 });
    expect(configs.get('report-dispatch')).toMatchObject({
      MaximumRetryAttempts: 2,
      MaximumEventAgeInSeconds: 300,
      DestinationConfig: { OnFailure: { Destination: expect.anything() } },
    });
    expect(configs.get('ses-events')).toMatchObject({ MaximumRetryAttempts: 2, DestinationConfig: { OnFailure: { Destination: expect.anything() } } });
    for (const name of ['report-dispatch', 'ses-events']) {
      const destination = JSON.stringify(configs.get(name)?.['DestinationConfig']);
      const queue = resourcesOf('AWS::SQS::Queue').find(([, r]) => props(r)['QueueName'] === `sentinel-devnet-${name}-failures`);
      expect(destination, name).toContain(queue?.[0]);
      expect(props(queue?.[1] as Resource)).toMatchObject({ SqsManagedSseEnabled: true });
    }
    // The failure queues are alarmed (above); dispatch has none on purpose: the next minute's run redoes its work.
  });

  it('alarms on errors and throttles of every function, by function name', () => {
    for (const metric of ['Errors', 'Throttles']) {
      const found = alarms().filter((a) => a['MetricName'] === metric && a['Namespace'] === 'AWS/Lambda');
      expect(found.map((a) => (a['Dimensions'] as { Value: string }[])[0]?.Value).sort()).toEqual(HANDLER_NAMES.map((n) => `sentinel-devnet-${n}`).sort());
    }
    expect(alarmNamed('CollectErrors')).toMatchObject({ EvaluationPeriods: 3, DatapointsToAlarm: 2 });
    expect(alarmNamed('SignRevocationErrors')).toMatchObject({ EvaluationPeriods: 1, DatapointsToAlarm: 1 });
  });

  it("heartbeat: dispatch's OverdueAccounts > 0, or dispatch silent, in 2 of 3 five-minute periods", () => {
    expect(alarmNamed('CollectionHeartbeat')).toMatchObject({
      Namespace: 'PortfolioSentinel',
      MetricName: 'OverdueAccounts',
      Dimensions: expect.arrayContaining([
        { Name: 'service', Value: 'dispatch' },
        { Name: 'stage', Value: 'devnet' },
      ]),
      Statistic: 'Maximum',
      Period: 300,
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
      TreatMissingData: 'breaching',
    });
    expect(alarms().filter((a) => a['MetricName'] === 'SuccessfulPolls')).toEqual([]);
  });

  it('heartbeat stays OK on an hourly schedule, and fires when accounts stay overdue or dispatch goes silent', () => {
    const heartbeat = alarmNamed('CollectionHeartbeat') as unknown as SimulatedAlarm;
    expect(simulateAlarm(heartbeat, healthy('OverdueAccounts'), TWO_DAYS)).not.toContain('ALARM');
    // One overdue minute is noise; ten are not.
    const blip = series((at) => (at === 7200 ? 3 : 0), 60, TWO_DAYS);
    expect(simulateAlarm(heartbeat, blip, TWO_DAYS)).not.toContain('ALARM');
    const stuck = series((at) => (at >= 7200 && at < 7800 ? 3 : 0), 60, TWO_DAYS);
    expect(simulateAlarm(heartbeat, stuck, TWO_DAYS)).toContain('ALARM');
    const silent = series((at) => (at >= 7200 && at < 8400 ? undefined : 0), 60, TWO_DAYS);
    expect(simulateAlarm(heartbeat, silent, TWO_DAYS)).toContain('ALARM');
    // The simulation is not vacuous: the old heartbeat (SuccessfulPolls summed over 15 min, missing breaching) flaps hourly.
    const old: SimulatedAlarm = {
      Period: 900,
      EvaluationPeriods: 1,
      Threshold: 1,
      ComparisonOperator: 'LessThanThreshold',
      TreatMissingData: 'breaching',
      Statistic: 'Sum',
    };
    expect(simulateAlarm(old, healthy('SuccessfulPolls'), TWO_DAYS).filter((s) => s === 'ALARM').length).toBeGreaterThan(40);
  });

  it('chain outage: polls failed on the chain (PollErrors / Polls) >= 50 % in 2 of 3 five-minute periods, periods without polls ignored', () => {
    const alarm = alarmNamed('ChainPollFailures');
    const queries = alarm['Metrics'] as { Id: string; Expression?: string; MetricStat?: { Metric: AlarmMetric; Period: number; Stat: string } }[];
    const read = Object.fromEntries(queries.filter((q) => q.MetricStat).map((q) => [q.Id, q.MetricStat]));
    for (const [id, metricName] of [
      ['errors', 'PollErrors'],
      ['polls', 'Polls'],
    ] as const) {
      expect(read[id], id).toMatchObject({
        Metric: {
          Namespace: 'PortfolioSentinel',
          MetricName: metricName,
          Dimensions: expect.arrayContaining([
            { Name: 'service', Value: 'collect' },
            { Name: 'stage', Value: 'devnet' },
          ]),
        },
        Period: 300,
        Stat: 'Sum',
      });
    }
    expect(queries.find((q) => q.Expression)?.Expression).toBe('100 * FILL(errors, 0) / polls');
    expect(alarm).toMatchObject({
      Threshold: CHAIN_POLL_FAILURE_ALARM.percent,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
      TreatMissingData: 'ignore',
    });

    const simulated = alarm as unknown as SimulatedAlarm;
    const DAY = 24 * HOUR;
    // 500 accounts, polls spread over every minute (about 14 a minute); the chain fails from `from` to `to` (s).
    const outage =
      (from: number, to: number, failedPerMinute = 14) =>
      (metric: AlarmMetric): RawPoint[] =>
        metric.MetricName === 'Polls' ? series(14, 60, DAY) : series((at) => (at >= from && at < to ? failedPerMinute : undefined), 60, DAY);
    const states = simulateAlarm(simulated, outage(7.5 * HOUR, 8.5 * HOUR), DAY);
    const periodEnd = (i: number) => (i + 1) * 300;
    const fired = states.findIndex((s) => s === 'ALARM');
    const cleared = states.findIndex((s, i) => i > fired && s === 'OK');
    // Fires within 15 minutes of the outage's start, clears within 15 minutes of its end, and is not in ALARM otherwise.
    expect(periodEnd(fired) - 7.5 * HOUR).toBeGreaterThan(0);
    expect(periodEnd(fired) - 7.5 * HOUR).toBeLessThanOrEqual(15 * 60);
    expect(periodEnd(cleared) - 8.5 * HOUR).toBeGreaterThan(0);
    expect(periodEnd(cleared) - 8.5 * HOUR).toBeLessThanOrEqual(15 * 60);
    expect(states.slice(cleared).filter((s) => s === 'ALARM')).toEqual([]);
    // Five minutes of failures, or a few accounts the chain refuses all day, is not an outage.
    expect(simulateAlarm(simulated, outage(7.5 * HOUR, 7.5 * HOUR + 300), DAY)).not.toContain('ALARM');
    expect(simulateAlarm(simulated, outage(0, DAY, 2), DAY)).not.toContain('ALARM');
    // Polls every ten minutes (a small stage): a period without polls is left out, so the outage still fires, then clears.
    const sparse = (metric: AlarmMetric): RawPoint[] =>
      series((at) => (at % 600 === 0 ? (metric.MetricName === 'Polls' || (at >= 2 * HOUR && at < 3 * HOUR) ? 3 : undefined) : undefined), 60, DAY);
    const small = simulateAlarm(simulated, sparse, DAY);
    expect(small.indexOf('ALARM') * 300).toBeGreaterThanOrEqual(2 * HOUR);
    expect(small.indexOf('ALARM') * 300).toBeLessThanOrEqual(2 * HOUR + 20 * 60);
    expect(small.at(-1)).toBe('OK');
  });

  it('fires no alarm on a healthy system (every alarm simulated over two days of hourly accounts)', () => {
    for (const alarm of alarms()) {
      const states = simulateAlarm(alarm as unknown as SimulatedAlarm, (metric) => healthy(metric.MetricName), TWO_DAYS);
      expect(states, String(alarm['AlarmName'])).not.toContain('ALARM');
    }
  });

  it('alarms on API 5xx, notification failures, malformed messages and report lateness (agreed metric names)', () => {
    // The REST API by its fixed name and stage: no export, no parameter.
    expect(alarmNamed('ApiServerErrors')).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: '5XXError',
      Dimensions: expect.arrayContaining([
        { Name: 'ApiName', Value: 'sentinel-devnet-links' },
        { Name: 'Stage', Value: LINK_API_STAGE },
      ]),
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
    });
    expect(alarmNamed('NotificationFailures')).toMatchObject({
      MetricName: 'NotificationFailures',
      Dimensions: expect.arrayContaining([{ Name: 'service', Value: 'notify' }]),
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
    });
    for (const service of ['Collect', 'Notify', 'Report'])
      expect(alarmNamed(`${service}MalformedMessages`)).toMatchObject({ MetricName: 'MalformedMessages', Threshold: 1 });
    expect(alarmNamed('ReportLateness')).toMatchObject({ MetricName: 'ReportLatenessSeconds', Statistic: 'Maximum', Threshold: 3600 });
  });

  it('alarms on SES throttling of notify and report sustained for a quarter hour, not on a burst, and clears once it stops', () => {
    const MINUTE = 60;
    for (const service of ['notify', 'report']) {
      const alarm = alarmNamed(`${service[0]!.toUpperCase()}${service.slice(1)}MailThrottled`) as unknown as SimulatedAlarm & Record<string, unknown>;
      expect(alarm).toMatchObject({
        Namespace: 'PortfolioSentinel',
        MetricName: 'MailThrottled',
        Dimensions: expect.arrayContaining([
          { Name: 'service', Value: service },
          { Name: 'stage', Value: 'devnet' },
        ]),
        Statistic: 'Sum',
        Period: 300,
        Threshold: 1,
        EvaluationPeriods: MAIL_THROTTLED_ALARM.periods,
        DatapointsToAlarm: MAIL_THROTTLED_ALARM.periods,
        TreatMissingData: 'notBreaching',
      });
      // Throttled sends every minute from 08:00 to 08:30 (the chaos run's fault), then none.
      const halfHour: RawPoint[] = Array.from({ length: 30 }, (_, i) => ({ at: (480 + i) * MINUTE, value: 3 }));
      const states = simulateAlarm(alarm, halfHour, 600 * MINUTE);
      expect(states.indexOf('ALARM'), 'fires only after three throttled periods').toBeGreaterThan(0);
      expect(states.at(-1), 'clears once throttling stops').toBe('OK');
      const burst: RawPoint[] = Array.from({ length: 8 }, (_, i) => ({ at: (480 + i) * MINUTE, value: 20 }));
      expect(simulateAlarm(alarm, burst, 600 * MINUTE), 'eight minutes of throttling is not sustained').not.toContain('ALARM');
    }
  });

  it('alarms at the first confirmation that could not invoke the signer (missing or denied), not on throttling', () => {
    const unavailable = alarmNamed('RevocationSignerUnavailable') as unknown as SimulatedAlarm & Record<string, unknown>;
    expect(unavailable).toMatchObject({
      Namespace: 'PortfolioSentinel',
      MetricName: 'RevocationSignerUnavailable',
      Dimensions: expect.arrayContaining([
        { Name: 'service', Value: 'revoke-page' },
        { Name: 'stage', Value: 'devnet' },
      ]),
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
    const quiet: RawPoint[] = [];
    expect(simulateAlarm(unavailable, quiet, 3_600)).not.toContain('ALARM');
    expect(simulateAlarm(unavailable, [{ at: 600, value: 1 }], 3_600)).toContain('ALARM');
    expect(alarms().some((a) => a['MetricName'] === 'RevocationSignerThrottled')).toBe(false);
  });

  it("alarms on any automatic decision refused or failed within 5 minutes (the signer's metrics), and on a decision waiting 2 minutes", () => {
    for (const id of ['DecisionsRefused', 'DecisionsFailed']) {
      const alarm = alarmNamed(id) as unknown as SimulatedAlarm & Record<string, unknown>;
      expect(alarm, id).toMatchObject({
        Namespace: 'PortfolioSentinel',
        MetricName: id,
        Dimensions: expect.arrayContaining([{ Name: 'service', Value: 'sign-revocation' }]),
        Period: 300,
        Threshold: 1,
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
      });
      expect(simulateAlarm(alarm, [], 3_600)).not.toContain('ALARM');
      expect(simulateAlarm(alarm, [{ at: 600, value: 1 }], 3_600), id).toContain('ALARM');
    }
    const waiting = alarmNamed('DecisionWaiting') as unknown as SimulatedAlarm & Record<string, unknown>;
    expect(waiting).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateAgeOfOldestMessage',
      Dimensions: [{ Name: 'QueueName', Value: 'sentinel-devnet-decisions.fifo' }],
      Period: 60,
      Threshold: 120,
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
    });
    // A unit signed within seconds never fires it; one waiting out a 10-minute key-service outage does, within 3 minutes of being 2 minutes old.
    const ageOf = (from: number, to: number) => series((at) => (at >= from && at < to ? at - from : 0), 60, 3_600);
    expect(
      simulateAlarm(
        waiting,
        series((at) => (at % 600 < 60 ? 20 : 0), 60, 3_600),
        3_600,
      ),
    ).not.toContain('ALARM');
    const outage = simulateAlarm(waiting, ageOf(600, 1_200), 3_600);
    expect(outage.indexOf('ALARM') * 60).toBeGreaterThanOrEqual(600 + 120);
    expect(outage.indexOf('ALARM') * 60).toBeLessThanOrEqual(600 + 120 + 180);
  });

  it('alarms at the first channel marked broken and the first payload a destination refused (channel-worker metrics)', () => {
    for (const [id, metric] of [
      ['ChannelBroken', 'ChannelRefused'],
      ['ChannelPayloadRejected', 'ChannelPayloadRejected'],
    ] as const) {
      expect(alarmNamed(id), id).toMatchObject({
        Namespace: 'PortfolioSentinel',
        MetricName: metric,
        Dimensions: expect.arrayContaining([{ Name: 'service', Value: 'channel-worker' }]),
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
      });
    }
    for (const service of ['channel-worker', 'revoke-all-worker']) {
      expect(alarmNamed(`${service.replace(/(^|-)([a-z])/g, (_, _d: string, c: string) => c.toUpperCase())}MalformedMessages`), service).toMatchObject({
        MetricName: 'MalformedMessages',
      });
    }
  });

  it('alarms on SES reputation (bounce >= 4 %, complaints >= 0.08 %) and on failed event notifications', () => {
    expect(alarmNamed('SesBounceRate')).toMatchObject({
      Namespace: 'AWS/SES',
      MetricName: 'Reputation.BounceRate',
      Threshold: 0.04,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(alarmNamed('SesComplaintRate')).toMatchObject({ Namespace: 'AWS/SES', MetricName: 'Reputation.ComplaintRate', Threshold: 0.0008 });
    expect(alarmNamed('SesEventNotificationsFailed')).toMatchObject({
      Namespace: 'AWS/SNS',
      MetricName: 'NumberOfNotificationsFailed',
      Dimensions: [{ Name: 'TopicName', Value: 'sentinel-devnet-ses-events' }],
    });
  });

  it('alarms when the WAF keeps turning away a flood from a few clients (blocked by each per-client rule, 2 of 3 periods)', () => {
    for (const [id, rule, threshold] of [
      ['LinkFloodBlocked', LINK_FIREWALL_RULES.perClient, LINK_FLOOD_BLOCKED_ALARM.requests],
      ['LinkPostFloodBlocked', LINK_FIREWALL_RULES.perClientPosts, LINK_FLOOD_BLOCKED_ALARM.posts],
    ] as const) {
      const alarm = alarmNamed(id);
      expect(alarm, id).toMatchObject({
        Namespace: 'AWS/WAFV2',
        MetricName: 'BlockedRequests',
        Statistic: 'Sum',
        Period: 300,
        Threshold: threshold,
        EvaluationPeriods: 3,
        DatapointsToAlarm: 2,
        TreatMissingData: 'notBreaching',
      });
      const dimensions = Object.fromEntries((alarm['Dimensions'] as { Name: string; Value: unknown }[]).map((d) => [d.Name, d.Value]));
      expect(dimensions).toEqual({ WebACL: 'sentinel-devnet-links', Rule: rule, Region: { Ref: 'AWS::Region' } });
      // The ACL's metric names are the rule names the alarm reads.
      synth.templates.web.hasResourceProperties('AWS::WAFv2::WebACL', {
        Name: dimensions['WebACL'],
        Rules: Match.arrayWith([Match.objectLike({ Name: rule, VisibilityConfig: Match.objectLike({ MetricName: rule }) })]),
      });
      const simulated = alarm as unknown as SimulatedAlarm;
      // A person retrying a few times is not a flood; a script sustained over ten minutes is.
      expect(
        simulateAlarm(
          simulated,
          series((at) => (at % 3600 === 0 ? 5 : 0), 60, 6 * 3600),
          6 * 3600,
        ),
        id,
      ).not.toContain('ALARM');
      expect(
        simulateAlarm(
          simulated,
          series((at) => (at >= 3600 && at < 4800 ? threshold : 0), 60, 6 * 3600),
          6 * 3600,
        ),
        id,
      ).toContain('ALARM');
    }
  });

  it('has a dashboard for the stage: polls, lateness, queue ages, emails, errors, chain requests, the WAF', () => {
    const dashboards = resourcesOf('AWS::CloudWatch::Dashboard').map(([, r]) => props(r));
    expect(dashboards).toHaveLength(1);
    expect(dashboards[0]?.['DashboardName']).toBe('sentinel-devnet-overview');
    const body = JSON.stringify(dashboards[0]?.['DashboardBody']);
    for (const needle of [
      'SuccessfulPolls',
      'OverdueAccounts',
      'ReportLatenessSeconds',
      'ApproximateAgeOfOldestMessage',
      'Delivery',
      'Errors',
      'ChainRequests',
      'AWS/WAFV2',
      'BlockedRequests',
      LINK_FIREWALL_RULES.perClient,
      '5XXError',
      'ChannelDeliveries',
      'ChannelRefused',
    ]) {
      expect(body, needle).toContain(needle);
    }
  });

  it('shows channel deliveries and failures per channel type on the dashboard (the metrics the channel worker counts)', () => {
    const dashboards = resourcesOf('AWS::CloudWatch::Dashboard').map(([, r]) => props(r));
    const body = JSON.stringify(dashboards[0]?.['DashboardBody']).replace(/\\"/g, '"');
    const widget = body.slice(body.indexOf('Channels by type'));
    expect(widget.length, 'a channels-by-type widget').toBeGreaterThan(0);
    for (const type of CHANNEL_TYPES) {
      for (const measure of ['Deliveries', 'Failures'] as const)
        expect(widget, `${type} ${measure}`).toContain(`"${channelTypeMetric(measure, type)}","service","channel-worker"`);
    }
  });

  it('has every alarm in the alarm table of docs/operations.md (what it means, what to do)', () => {
    const runbook = readFileSync(join('docs', 'operations.md'), 'utf8');
    const table = runbook.slice(runbook.indexOf('## Alarms'), runbook.indexOf('\n## ', runbook.indexOf('## Alarms') + 1));
    const rows = table.split('\n').filter((line) => line.startsWith('| `'));
    const ids = alarms().map((a) => String(a['AlarmName']).replace('sentinel-devnet-monitoring-', ''));
    expect(ids.length).toBeGreaterThan(30);
    for (const id of ids) {
      // Per-function throttles share one row (`<Fn>Throttles`); every other alarm is named in the first column of its row.
      const named = id.endsWith('Throttles') ? '`<Fn>Throttles`' : `\`${id}\``;
      expect(
        rows.some((row) => row.split(' | ')[0]?.includes(named) && row.split(' | ').length >= 3),
        id,
      ).toBe(true);
    }
  });

  it('sends every alarm to the encrypted alarm topic, with the configured subscriber', () => {
    const topicId = Object.entries(synth.json.monitoring.Resources).find(([, r]) => r.Type === 'AWS::SNS::Topic')?.[0];
    for (const a of alarms()) {
      expect(a['AlarmActions']).toEqual([{ Ref: topicId }]);
      expect(a['OKActions']).toEqual([{ Ref: topicId }]);
    }
    synth.templates.monitoring.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    synth.templates.monitoring.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: TEST_CONTEXT.alarmEmail });
  });

  it('encrypts both topics and refuses non-TLS publishing', () => {
    for (const part of ['messaging', 'monitoring'] as const) {
      synth.templates[part].hasResourceProperties('AWS::SNS::TopicPolicy', {
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        },
      });
      synth.templates[part].hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    }
  });
});

describe('stack boundaries', () => {
  it('exports nothing and imports nothing: stacks refer to each other by names and SSM parameters', () => {
    for (const part of STACK_PARTS) {
      const outputs = Object.entries(synth.json[part].Outputs ?? {});
      expect(
        outputs.filter(([, o]) => o.Export !== undefined).map(([id]) => id),
        part,
      ).toEqual([]);
      expect(JSON.stringify(synth.json[part]), part).not.toContain('Fn::ImportValue');
    }
  });

  it('retains the link key secrets (one per purpose) and the anti-CSRF secret, and no longer has one link secret for all', () => {
    for (const name of [...LINK_PURPOSES.map((p) => `sentinel-devnet-link-key-${p}`), 'sentinel-devnet-csrf-secret']) {
      synth.templates.data.hasResource('AWS::SecretsManager::Secret', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain', Properties: { Name: name } });
    }
    const names = Object.values(synth.json.data.Resources)
      .filter((r) => r.Type === 'AWS::SecretsManager::Secret')
      .map((r) => (r.Properties as { Name: string }).Name);
    expect(names).toHaveLength(LINK_PURPOSES.length + 1);
    expect(names).not.toContain('sentinel-devnet-link-secret');
  });
});

describe('bundles', () => {
  function assetDir(name: string): string {
    const code = props(functionNamed(name))['Code'] as { S3Key: string };
    return join(synth.assembly.directory, `asset.${code.S3Key.replace(/\.zip$/, '')}`);
  }

  it("keeps each function's logical id as it was under the custom asset builder (NodejsFunction replaced lambda.Function in place)", () => {
    const ids = Object.fromEntries(HANDLER_NAMES.map((name) => [name, logicalIdOfFunction(name)]));
    expect(ids).toEqual({
      dispatch: 'DispatchFunctionCD7C4A01',
      collect: 'CollectFunction02542C7F',
      'decision-worker': 'DecisionWorkerFunctionF30F01C7',
      'report-dispatch': 'ReportDispatchFunction381030AA',
      notify: 'NotifyFunction3392CA4F',
      'daily-report': 'DailyReportFunction993BAE39',
      'revoke-page': 'RevokePageFunction3EC0E7C8',
      'preferences-page': 'PreferencesPageFunction8BA449BF',
      'sign-revocation': 'SignRevocationFunction39219737',
      'ses-events': 'SesEventsFunctionEB9BAB8F',
      // Added with channels and revoke-all in AWS: pinned from their first deploy on.
      'channel-worker': 'ChannelWorkerFunction33953758',
      'revoke-all-page': 'RevokeAllPageFunction3826E017',
      'revoke-all-worker': 'RevokeAllWorkerFunctionB67FB50D',
      'desk-page': 'DeskPageFunction429A9658',
      // Added with the desk's Test button moved out of desk-page (least privilege).
      'channel-test': 'ChannelTestFunction7D2AA39A',
      // Added with the fan-out moved out of the channel worker (its own queue).
      'channel-fanout': 'ChannelFanoutFunction52888BC3',
    });
  });

  it('bundles each handler to one minified ESM file with a source map', () => {
    for (const name of HANDLER_NAMES) {
      const dir = assetDir(name);
      expect(existsSync(join(dir, 'index.mjs')), name).toBe(true);
      expect(existsSync(join(dir, 'index.mjs.map')), name).toBe(true);
      const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
      expect(code.startsWith("import { createRequire as __sentinelCreateRequire } from 'node:module'"), name).toBe(true);
    }
  });

  it('ships templates/ (with their precompiled module) and the native chart library next to the renderers, and only there', () => {
    const templateFiles = readdirSync('templates', { recursive: true }).length;
    for (const name of HANDLER_NAMES) {
      const dir = assetDir(name);
      const needs = HANDLER_CATALOG[name].bundle;
      expect(existsSync(join(dir, 'templates')), name).toBe(needs.templates);
      // The desk page's browser client, served from the bundle (DESK_ASSETS_DIR).
      expect(existsSync(join(dir, 'desk-assets', 'chart.js')), name).toBe(needs.deskClient);
      if (needs.templates) {
        // The templates, and the module precompiled from them when bundling (the bundle has only the Handlebars runtime).
        expect(readdirSync(join(dir, 'templates'), { recursive: true }).length).toBe(templateFiles + 1);
        const precompiled = readFileSync(join(dir, 'templates', 'precompiled.mjs'), 'utf8');
        expect(precompiled).toMatch(/^\/\/ Generated from the templates[\s\S]*\n {4}"daily-report": \{ subject: \{/);
        expect(precompiled).toContain('"compiler":[8,');
      }
      for (const module of needs.nativeModules) {
        expect(existsSync(join(dir, 'node_modules', module, 'package.json')), name).toBe(true);
        expect(existsSync(join(dir, 'node_modules', `${module}-linux-x64-gnu`)), name).toBe(false);
        const binaryDir = join(dir, 'node_modules', `${module}-linux-arm64-gnu`);
        const addons = readdirSync(binaryDir).filter((f) => f.endsWith('.node'));
        expect(addons, name).toEqual(['resvgjs.linux-arm64-gnu.node']);
        // ELF, 64-bit, little-endian, machine EM_AARCH64 (183): the Linux ARM64 build, whatever the build host.
        const elf = readFileSync(join(binaryDir, addons[0] ?? ''));
        expect([elf.subarray(0, 4).toString('latin1'), elf[4], elf[5], elf.readUInt16LE(18)], name).toEqual(['\x7fELF', 2, 1, 183]);
        const manifest = JSON.parse(readFileSync(join(binaryDir, 'package.json'), 'utf8')) as { version: string; cpu: string[]; os: string[] };
        const installed = JSON.parse(readFileSync(join('node_modules', module, 'package.json'), 'utf8')) as { version: string };
        expect([manifest.version, manifest.os, manifest.cpu], name).toEqual([installed.version, ['linux'], ['arm64']]);
      }
      if (needs.nativeModules.length === 0) expect(existsSync(join(dir, 'node_modules')), name).toBe(false);
    }
  });

  it('ships the chart fonts (DejaVu Sans regular and bold, with the licence) in fonts/ next to the renderers, and only there', () => {
    const fonts = ['DejaVuSans-Bold.ttf', 'DejaVuSans.ttf', 'LICENSE-DejaVu'];
    for (const name of HANDLER_NAMES) {
      const dir = join(assetDir(name), 'fonts');
      if (!HANDLER_CATALOG[name].bundle.fonts) {
        expect(existsSync(dir), name).toBe(false);
        continue;
      }
      expect(readdirSync(dir).sort(), name).toEqual(fonts);
      for (const ttf of fonts.filter((f) => f.endsWith('.ttf'))) {
        const bytes = readFileSync(join(dir, ttf));
        expect(bytes.readUInt32BE(0), `${name}/${ttf} is a TrueType font`).toBe(0x00010000);
        expect(bytes.equals(readFileSync(join('node_modules', 'dejavu-fonts-ttf', 'ttf', ttf))), ttf).toBe(true);
      }
    }
  });

  it('is byte for byte what the benchmark builds from the same shared settings', async () => {
    for (const name of HANDLER_NAMES) {
      const bench = (await benchBundle(name)).code;
      const cdk = readFileSync(join(assetDir(name), 'index.mjs'), 'utf8');
      expect(bench === cdk, `${name}: bench bundle differs from the CDK asset`).toBe(true);
    }
  }, 180_000);
});
