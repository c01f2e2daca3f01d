import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_SETTINGS, esbuildOptions } from '../../infra/bundling/bundleSettings';
import { HANDLER_BUNDLE_NEEDS, HANDLER_NAMES, handlerEntry } from '../../infra/bundling/handlerCatalog';
import { FUNCTION_SIZING } from '../../infra/config/functionSizing';
import { VISIBILITY_FACTOR } from '../../infra/constructs/WorkQueue';
import { MAX_RECEIVE_COUNT } from '../../infra/stacks/MessagingStack';
import { REPORT_QUEUE_MAX_AGE } from '../../infra/sentinelApp';
import { REPORT_BATCH_SIZE, REPORT_WORKER_CONCURRENCY } from '../../functions/services/report/reportWorkers';
import { TABLES } from '../../functions/store/tableDefinitions';
import { STACK_PARTS, TEST_CONTEXT, cleanUpSynth, synthStage, type SynthResult, type TemplateJson } from './synthStage';

let synth: SynthResult;
// Bundling eight functions takes a while on a loaded 2-core machine.
beforeAll(() => {
  // Schema validation is slow to load and runs in stages.test.ts; everything else here is real.
  synth = synthStage(TEST_CONTEXT, { schemaValidation: false });
}, 300_000);
afterAll(cleanUpSynth);

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
              Projection: { ProjectionType: 'ALL' },
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
    expect(queues().length).toBe(7);
    for (const q of queues()) expect(props(q)['SqsManagedSseEnabled']).toBe(true);
  });

  it('denies every non-TLS request to every queue', () => {
    const policies = resourcesOf('AWS::SQS::QueuePolicy').map(([, r]) => props(r));
    expect(policies).toHaveLength(7);
    for (const policy of policies) {
      expect(policy['PolicyDocument']).toMatchObject({
        Statement: expect.arrayContaining([
          expect.objectContaining({ Effect: 'Deny', Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      });
    }
  });

  it.each([
    ['collect', 'collect'],
    ['notify', 'notify'],
    ['report', 'daily-report'],
  ] as const)('%s: dead-letter after %s receives, visibility >= 6x its consumer timeout', (queue, consumer) => {
    const found = queues().find((q) => props(q)['QueueName'] === `sentinel-devnet-${queue}`);
    expect(found).toBeDefined();
    const p = props(found as Resource);
    expect(p['RedrivePolicy']).toMatchObject({ maxReceiveCount: MAX_RECEIVE_COUNT });
    const consumerTimeout = props(functionNamed(consumer))['Timeout'] as number;
    expect(consumerTimeout).toBe(FUNCTION_SIZING[consumer].timeout.toSeconds());
    expect(p['VisibilityTimeout'] as number).toBeGreaterThanOrEqual(VISIBILITY_FACTOR * consumerTimeout);
  });
});

describe('functions', () => {
  it('creates the nine handlers, each on Node 22', () => {
    const fns = resourcesOf('AWS::Lambda::Function').map(([, r]) => props(r));
    expect(fns.map((f) => f['FunctionName']).sort()).toEqual(HANDLER_NAMES.map((n) => `sentinel-devnet-${n}`).sort());
    for (const f of fns) {
      expect(f['Runtime']).toBe('nodejs22.x');
      expect(f['Handler']).toBe('index.handler');
    }
  });

  it('runs on ARM64, except the renderers loading the x64-installed native chart library', () => {
    for (const name of HANDLER_NAMES) {
      const expected = HANDLER_BUNDLE_NEEDS[name].nativeModules.length > 0 ? 'x86_64' : 'arm64';
      expect(props(functionNamed(name))['Architectures'], name).toEqual([expected]);
    }
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

  it('sets the Powertools environment on every function', () => {
    for (const name of HANDLER_NAMES) {
      expect(props(functionNamed(name))['Environment'], name).toMatchObject({
        Variables: { POWERTOOLS_SERVICE_NAME: name, POWERTOOLS_METRICS_NAMESPACE: 'PortfolioSentinel', POWERTOOLS_LOG_LEVEL: 'INFO' },
      });
    }
  });

  it('sets exactly the runtime configuration each handler reads', () => {
    const vars = (name: string): string[] =>
      Object.keys((props(functionNamed(name))['Environment'] as { Variables: Record<string, unknown> }).Variables)
        .filter((k) => !k.startsWith('POWERTOOLS_') && k !== 'NODE_OPTIONS')
        .sort();
    expect(vars('dispatch')).toEqual(['COLLECT_QUEUE_URL', 'SENTINEL_TABLE_PREFIX']);
    expect(vars('report-dispatch')).toEqual(['REPORT_QUEUE_URL', 'SENTINEL_TABLE_PREFIX']);
    expect(vars('collect')).toEqual(['CHAIN_RPS', 'NOTIFY_QUEUE_URL', 'ROCKET_INDEXER_URL', 'ROCKET_NODE_URL', 'SENTINEL_TABLE_PREFIX']);
    const mailer = ['LINK_SECRET_ARN', 'MAIL_FROM', 'MAIL_RATE_WORKERS', 'PUBLIC_BASE_URL', 'SENTINEL_TABLE_PREFIX', 'SES_CONFIGURATION_SET', 'TEMPLATES_DIR'];
    expect(vars('notify')).toEqual(mailer);
    expect(vars('daily-report')).toEqual(mailer);
    expect(vars('revoke-page')).toEqual(['LINK_SECRET_ARN', 'PUBLIC_BASE_URL', 'SENTINEL_TABLE_PREFIX', 'SIGN_REVOCATION_FUNCTION_NAME']);
    expect(vars('preferences-page')).toEqual(['LINK_SECRET_ARN', 'PUBLIC_BASE_URL', 'SENTINEL_TABLE_PREFIX']);
    expect(vars('sign-revocation')).toEqual(['CHAIN_RPS', 'NOTIFY_QUEUE_URL', 'ROCKET_INDEXER_URL', 'ROCKET_NODE_URL', 'SENTINEL_TABLE_PREFIX']);
    expect(vars('ses-events')).toEqual(['SENTINEL_TABLE_PREFIX']);
  });

  it('points at the stage chain, table prefix, sender and the signer by name', () => {
    const env = (name: string): Record<string, unknown> => (props(functionNamed(name))['Environment'] as { Variables: Record<string, unknown> }).Variables;
    expect(env('collect')).toMatchObject({
      ROCKET_NODE_URL: 'https://devnet.rocket-cluster-1.com',
      ROCKET_INDEXER_URL: 'https://devnet.rocket-cluster-1.com/indexer',
      SENTINEL_TABLE_PREFIX: 'sentinel-devnet-',
    });
    expect(env('notify')).toMatchObject({ MAIL_FROM: TEST_CONTEXT.mailFrom, SES_CONFIGURATION_SET: 'sentinel-devnet-mail', TEMPLATES_DIR: '/var/task/templates' });
    expect(env('revoke-page')['SIGN_REVOCATION_FUNCTION_NAME']).toEqual({ Ref: logicalIdOfFunction('sign-revocation') });
  });

  it('splits the chain budget: collect instances x CHAIN_RPS + signer <= chainRps', () => {
    const rate = synth.stacks.config.rate;
    const collectRps = Number((props(functionNamed('collect'))['Environment'] as { Variables: Record<string, string> }).Variables['CHAIN_RPS']);
    const signerRps = Number((props(functionNamed('sign-revocation'))['Environment'] as { Variables: Record<string, string> }).Variables['CHAIN_RPS']);
    const mapping = resourcesOf('AWS::Lambda::EventSourceMapping').find(([, r]) => JSON.stringify(props(r)['FunctionName']).includes(logicalIdOfFunction('collect')));
    const instances = (props(mapping?.[1] as Resource)['ScalingConfig'] as { MaximumConcurrency: number }).MaximumConcurrency;
    expect(instances * collectRps + signerRps).toBeLessThanOrEqual(rate.totalRps);
    expect(collectRps).toBeGreaterThan(0);
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
  it('consumes the collect, notify and report queues with partial batch failures and a concurrency cap', () => {
    const mappings = resourcesOf('AWS::Lambda::EventSourceMapping').map(([, r]) => props(r));
    expect(mappings).toHaveLength(3);
    const forFunction = (name: string): Record<string, unknown> | undefined =>
      mappings.find((m) => JSON.stringify(m['FunctionName']).includes(logicalIdOfFunction(name)));
    expect(forFunction('collect')).toMatchObject({
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: synth.stacks.config.rate.collectConcurrency },
      EventSourceArn: { 'Fn::ImportValue': expect.stringContaining('CollectQueue') },
    });
    expect(forFunction('notify')).toMatchObject({
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: expect.any(Number) },
      EventSourceArn: { 'Fn::ImportValue': expect.stringContaining('NotifyQueue') },
    });
    expect(forFunction('daily-report')).toMatchObject({
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: REPORT_BATCH_SIZE,
      ScalingConfig: { MaximumConcurrency: REPORT_WORKER_CONCURRENCY },
      EventSourceArn: { 'Fn::ImportValue': expect.stringContaining('ReportQueue') },
    });
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
    synth.templates.compute.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'lambda',
      Endpoint: { 'Fn::GetAtt': [logicalIdOfFunction('ses-events'), 'Arn'] },
      TopicArn: { 'Fn::ImportValue': Match.stringLikeRegexp('SesEventsTopic') },
    });
  });
});

describe('link endpoint', () => {
  it('routes GET and POST of /revoke, /unsubscribe and /snooze to the two page functions only', () => {
    const routes = resourcesOf('AWS::ApiGatewayV2::Route').map(([, r]) => props(r)['RouteKey']);
    expect(routes.sort()).toEqual(['GET /revoke', 'GET /snooze', 'GET /unsubscribe', 'POST /revoke', 'POST /snooze', 'POST /unsubscribe']);
    const integrated = resourcesOf('AWS::ApiGatewayV2::Integration').map(([, r]) => JSON.stringify(props(r)['IntegrationUri']));
    expect(integrated.every((uri) => uri.includes(logicalIdOfFunction('revoke-page')) || uri.includes(logicalIdOfFunction('preferences-page')))).toBe(true);
  });

  it('gives sign-revocation no public entry point: no URL, no route, no resource-policy grant', () => {
    expect(resourcesOf('AWS::Lambda::Url')).toHaveLength(0);
    const signer = logicalIdOfFunction('sign-revocation');
    const permissions = resourcesOf('AWS::Lambda::Permission').map(([, r]) => JSON.stringify(props(r)['FunctionName']));
    expect(permissions.some((fn) => fn.includes(signer))).toBe(false);
    const integrations = resourcesOf('AWS::ApiGatewayV2::Integration').map(([, r]) => JSON.stringify(props(r)));
    expect(integrations.some((i) => i.includes(signer))).toBe(false);
  });

  it('throttles and access-logs the stage without the query string', () => {
    const stage = resourcesOf('AWS::ApiGatewayV2::Stage')[0]?.[1];
    expect(props(stage as Resource)).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: expect.any(Number), ThrottlingBurstLimit: expect.any(Number) },
      AccessLogSettings: { DestinationArn: expect.anything(), Format: expect.stringContaining('$context.routeKey') },
    });
    const format = (props(stage as Resource)['AccessLogSettings'] as { Format: string }).Format;
    expect(format).not.toMatch(/\$context\.(path|querystring|requestOverride)/i);
  });

  it('hands the API endpoint to the mail functions as PUBLIC_BASE_URL without a dependency cycle', () => {
    const url = (props(functionNamed('notify'))['Environment'] as { Variables: Record<string, unknown> }).Variables['PUBLIC_BASE_URL'];
    expect(JSON.stringify(url)).toMatch(/sentinel-devnet-web:.*ApiEndpoint/);
    expect(synth.stacks.web.dependencies).not.toContain(synth.stacks.compute);
  });
});

describe('alarms', () => {
  const alarms = (): Record<string, unknown>[] => resourcesOf('AWS::CloudWatch::Alarm').map(([, r]) => props(r));

  it('alarms on any message in each dead-letter queue (the report DLQ included) and in the ses-events failure queue', () => {
    const dlq = alarms().filter((a) => a['MetricName'] === 'ApproximateNumberOfMessagesVisible');
    expect(dlq).toHaveLength(4);
    expect(JSON.stringify(dlq)).toContain('ReportDeadLetter');
    for (const a of dlq) expect(a).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
  });

  it('keeps ses-events invocations that still fail after two retries in an encrypted queue', () => {
    const configs = resourcesOf('AWS::Lambda::EventInvokeConfig').map(([, r]) => props(r));
    expect(configs).toHaveLength(1);
    expect(configs[0]).toMatchObject({ MaximumRetryAttempts: 2, DestinationConfig: { OnFailure: { Destination: expect.anything() } } });
    const failures = resourcesOf('AWS::SQS::Queue').map(([, r]) => props(r)).filter((q) => String(q['QueueName']).endsWith('ses-events-failures'));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ SqsManagedSseEnabled: true });
  });

  it('alarms when the oldest report job has waited longer than the report queue allows', () => {
    const age = alarms().filter((a) => a['MetricName'] === 'ApproximateAgeOfOldestMessage');
    expect(age).toHaveLength(1);
    expect(age[0]).toMatchObject({
      Namespace: 'AWS/SQS',
      Statistic: 'Maximum',
      Period: 60,
      Threshold: REPORT_QUEUE_MAX_AGE.toSeconds(),
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect(JSON.stringify(age[0]?.['Dimensions'])).toContain('ReportQueue');
  });

  it('alarms on errors and throttles of every function', () => {
    for (const metric of ['Errors', 'Throttles']) {
      expect(alarms().filter((a) => a['MetricName'] === metric && a['Namespace'] === 'AWS/Lambda')).toHaveLength(HANDLER_NAMES.length);
    }
  });

  it('alarms when collect reported no successful poll for N minutes, missing data breaching', () => {
    const heartbeat = alarms().find((a) => a['MetricName'] === 'SuccessfulPolls');
    expect(heartbeat).toMatchObject({
      Namespace: 'PortfolioSentinel',
      Dimensions: [{ Name: 'service', Value: 'collect' }],
      Statistic: 'Sum',
      Period: synth.stacks.config.heartbeatMinutes * 60,
      ComparisonOperator: 'LessThanThreshold',
      Threshold: 1,
      TreatMissingData: 'breaching',
    });
  });

  it('sends every alarm to the encrypted alarm topic, with the configured subscriber', () => {
    const topicId = Object.entries(synth.json.monitoring.Resources).find(([, r]) => r.Type === 'AWS::SNS::Topic')?.[0];
    for (const a of alarms()) expect(a['AlarmActions']).toEqual([{ Ref: topicId }]);
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

describe('bundles', () => {
  function assetDir(name: string): string {
    const code = props(functionNamed(name))['Code'] as { S3Key: string };
    return join(synth.assembly.directory, `asset.${code.S3Key.replace(/\.zip$/, '')}`);
  }

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
      const needs = HANDLER_BUNDLE_NEEDS[name];
      expect(existsSync(join(dir, 'templates')), name).toBe(needs.templates);
      if (needs.templates) {
        // The templates, and the module precompiled from them when bundling (the bundle has only the Handlebars runtime).
        expect(readdirSync(join(dir, 'templates'), { recursive: true }).length).toBe(templateFiles + 1);
        const precompiled = readFileSync(join(dir, 'templates', 'precompiled.mjs'), 'utf8');
        expect(precompiled).toMatch(/^\/\/ Generated from the templates[\s\S]*\n {4}"daily-report": \{ subject: \{/);
        expect(precompiled).toContain('"compiler":[8,');
      }
      for (const module of needs.nativeModules) {
        expect(existsSync(join(dir, 'node_modules', module, 'package.json')), name).toBe(true);
        expect(existsSync(join(dir, 'node_modules', `${module}-linux-x64-gnu`)), name).toBe(true);
      }
      if (needs.nativeModules.length === 0) expect(existsSync(join(dir, 'node_modules')), name).toBe(false);
    }
  });

  it('ships the chart fonts (DejaVu Sans regular and bold, with the licence) in fonts/ next to the renderers, and only there', () => {
    const fonts = ['DejaVuSans-Bold.ttf', 'DejaVuSans.ttf', 'LICENSE-DejaVu'];
    for (const name of HANDLER_NAMES) {
      const dir = join(assetDir(name), 'fonts');
      if (!HANDLER_BUNDLE_NEEDS[name].fonts) {
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
    const out = mkdtempSync(join(tmpdir(), 'sentinel-parity-'));
    try {
      for (const name of HANDLER_NAMES) {
        await build({ ...esbuildOptions(handlerEntry(name), join(out, name), HANDLER_BUNDLE_NEEDS[name].nativeModules), logLevel: 'silent' });
        const bench = readFileSync(join(out, name, BUNDLE_SETTINGS.outFile), 'utf8');
        const cdk = readFileSync(join(assetDir(name), 'index.mjs'), 'utf8');
        expect(bench === cdk, `${name}: bench bundle differs from the CDK asset`).toBe(true);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
