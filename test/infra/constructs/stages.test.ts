import { ANONYMOUS_POST_RATE_LIMIT, DESK_SIGN_IN_RATE_LIMIT } from '../../../infra/constructs/LinkFirewall';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../infra/bundling/handlerEntry';
import { STAGE_NAMES } from '../../../infra/config/chainEnvironments';
import type { SentinelStacks } from '../../../infra/sentinelApp';
import { deployedStageContext, synthStage } from '../../support/infra/synthStage';

/** The REST base of each chain environment, written out here (not read from the config under test). */
const CHAIN_REST_BASE_EXPECTED: Readonly<Record<string, string>> = {
  devnet: 'https://devnet.rocket-cluster-1.com',
  testnet: 'https://testnet.rocket-cluster-1.com',
  beta: 'https://beta.rocket-cluster-1.com',
};

/** Proxy settings that make any network attempt fail at once instead of reaching the internet. */
const NO_NETWORK = {
  HTTP_PROXY: 'http://127.0.0.1:9',
  HTTPS_PROXY: 'http://127.0.0.1:9',
  http_proxy: 'http://127.0.0.1:9',
  https_proxy: 'http://127.0.0.1:9',
  NO_PROXY: '',
  CDK_DISABLE_VERSION_CHECK: '1',
  CDK_DISABLE_CLI_TELEMETRY: 'true',
};

describe('every stage synthesizes offline with real bundles, cdk-nag clean', () => {
  it.each(STAGE_NAMES)(
    '%s',
    (stage) => {
      const synth = synthStage(stage === 'devnet' ? { stage } : deployedStageContext(stage));
      // Unacknowledged cdk-nag (AwsSolutions) or CloudFormation schema findings would be listed here
      // (errors also make the synth throw above).
      expect(synth.validationReport.pluginReports).toEqual([]);
      expect(synth.annotations).toEqual([]);
      const names = synth.assembly.stacks.map((s) => s.stackName).sort();
      expect(names).toEqual(['compute', 'data', 'keys', 'messaging', 'monitoring', 'web'].map((p) => `sentinel-${stage}-${p}`));
      // testnet and beta are pinned to their account and region; devnet stays environment-agnostic.
      for (const s of synth.assembly.stacks) {
        expect(s.environment, s.stackName).toMatchObject(
          stage === 'devnet' ? { account: 'unknown-account', region: 'unknown-region' } : { account: '111122223333', region: 'eu-west-1' },
        );
      }
      const collect = Object.values(synth.json.compute.Resources).find(
        (r) => r.Type === 'AWS::Lambda::Function' && r.Properties?.['FunctionName'] === `sentinel-${stage}-collect`,
      );
      expect(collect?.Properties?.['Environment']).toMatchObject({
        Variables: {
          ROCKET_NODE_URL: CHAIN_REST_BASE_EXPECTED[stage],
          ROCKET_INDEXER_URL: `${CHAIN_REST_BASE_EXPECTED[stage]}/indexer`,
          SENTINEL_TABLE_PREFIX: `sentinel-${stage}-`,
        },
      });
    },
    360_000, // the first stage bundles all eight handlers cold: over 3 minutes at load average 30
  );

  it('takes the optional context: a custom domain for links, per-client limits, SES sandbox recipients', () => {
    const synth = synthStage({
      ...deployedStageContext('beta'),
      tracing: 'true',
      domainName: 'links.example.com',
      certificateArn: 'arn:aws:acm:eu-west-1:111122223333:certificate/0b1c2d3e-aaaa-bbbb-cccc-111122223333',
      sandboxRecipients: 'tester@example.org',
      linkRateLimit: '500',
      linkPostRateLimit: '50',
    });
    const sendGrants = Object.values(synth.json.compute.Resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .map((r) => JSON.stringify(r.Properties))
      .filter((p) => p.includes('ses:SendRawEmail'));
    // notify, daily-report, report-dispatch (missed reports) and ses-events (a bounced security recipient).
    expect(sendGrants).toHaveLength(4);
    for (const grant of sendGrants) expect(grant).toContain(':identity/tester@example.org');
    expect(synth.validationReport.pluginReports).toEqual([]);
    synth.templates.web.hasResourceProperties('AWS::ApiGateway::DomainName', {
      DomainName: 'links.example.com',
      EndpointConfiguration: { Types: ['REGIONAL'] },
      RegionalCertificateArn: 'arn:aws:acm:eu-west-1:111122223333:certificate/0b1c2d3e-aaaa-bbbb-cccc-111122223333',
      SecurityPolicy: 'TLS_1_2',
    });
    // The domain maps to the one stage, the one the web ACL guards.
    const web = Object.entries(synth.json.web.Resources);
    const stageId = web.find(([, r]) => r.Type === 'AWS::ApiGateway::Stage')?.[0];
    const mappings = web.filter(([, r]) => r.Type === 'AWS::ApiGatewayV2::ApiMapping' || r.Type === 'AWS::ApiGateway::BasePathMapping');
    expect(mappings).toHaveLength(1);
    expect(mappings[0]?.[1].Properties?.['Stage']).toEqual({ Ref: stageId });
    expect(JSON.stringify(web.find(([, r]) => r.Type === 'AWS::WAFv2::WebACLAssociation')?.[1].Properties?.['ResourceArn'])).toContain(`{"Ref":"${stageId}"}`);
    const notify = Object.values(synth.json.compute.Resources).find((r) => r.Properties?.['FunctionName'] === 'sentinel-beta-notify');
    expect(notify?.Properties?.['Environment']).toMatchObject({ Variables: { PUBLIC_BASE_URL: 'https://links.example.com' } });
    // Links use the domain only: the execute-api endpoint is off.
    synth.templates.web.hasResourceProperties('AWS::ApiGateway::RestApi', { DisableExecuteApiEndpoint: true });
    expect(notify?.Properties?.['TracingConfig']).toEqual({ Mode: 'Active' });
    // The per-client limits of the stage.
    const acl = web.find(([, r]) => r.Type === 'AWS::WAFv2::WebACL')?.[1].Properties as {
      Rules: { Name: string; Statement: { RateBasedStatement?: { Limit: number } } }[];
    };
    expect(acl.Rules.map((r) => [r.Name, r.Statement.RateBasedStatement?.Limit])).toEqual([
      ['ip-reputation', undefined],
      ['anonymous-ip', undefined],
      ['post-without-token', undefined],
      ['per-client-rate', 500],
      ['per-client-post-rate', 50],
      // Anonymous addresses (the managed group's labels, counted only) get the stricter POST rate.
      ['anonymous-post-rate', ANONYMOUS_POST_RATE_LIMIT],
      // Sign-in POSTs to the desk page: a rate of their own (the stage's POST rate when lower).
      ['desk-sign-in-rate', DESK_SIGN_IN_RATE_LIMIT],
    ]);
    // Setting the domain or the limits (documented routine changes) leaves no export behind to delete or import.
    for (const part of ['keys', 'data', 'messaging', 'web', 'compute', 'monitoring'] as const) {
      const template = JSON.stringify(synth.json[part]);
      expect(template, part).not.toContain('Fn::ImportValue');
      expect(
        Object.values(synth.json[part].Outputs ?? {}).filter((o) => o.Export !== undefined),
        part,
      ).toEqual([]);
    }
  }, 180_000);

  it('fails the synth on an unacknowledged cdk-nag finding (the check above is not vacuous)', () => {
    const addUnencryptedQueue = ({ data }: SentinelStacks): void => {
      new Queue(data, 'Unencrypted', { encryption: QueueEncryption.UNENCRYPTED });
    };
    // cdk-nag is what is proven here: the CloudFormation schema check (on in the stage synths above) stays off.
    expect(() => synthStage({ stage: 'devnet' }, { mutate: addUnencryptedQueue, schemaValidation: false })).toThrow(/AwsSolutions-SQS2/);
  }, 180_000);
});

/**
 * `NODE_OPTIONS` that install the test bundle cache in the CDK app's process when `cdk synth` runs
 * it (`appBundleCache.mjs`): its bundles were built, cold, by the in-process synths and the bundle
 * tests from the same sources and settings; a changed source still bundles here for real.
 */
const APP_BUNDLE_CACHE = [process.env['NODE_OPTIONS'], `--import ${pathToFileURL(join(PROJECT_ROOT, 'test/support/infra/appBundleCache.mjs')).href}`]
  .filter((option) => option !== undefined && option !== '')
  .join(' ');

/** The app command of cdk.json, the one `cdk synth` runs. */
const CDK_JSON_APP = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { app: string }).app;

describe('the cdk CLI', () => {
  it(
    'runs `cdk synth -c stage=testnet` from cdk.json with the network unreachable',
    () => {
      const outdir = mkdtempSync(join(tmpdir(), 'sentinel-cli-'));
      try {
        const context = Object.entries(deployedStageContext('testnet')).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
        const run = spawnSync('npx', ['--no-install', 'cdk', 'synth', ...context, '--quiet', '--no-notices', '-o', outdir], {
          cwd: PROJECT_ROOT,
          env: { ...process.env, ...NO_NETWORK, NODE_OPTIONS: APP_BUNDLE_CACHE },
          encoding: 'utf8',
          timeout: 560_000,
        });
        expect(run.status, run.stderr).toBe(0);
        for (const part of ['keys', 'data', 'messaging', 'web', 'compute', 'monitoring']) {
          expect(existsSync(join(outdir, `sentinel-testnet-${part}.template.json`))).toBe(true);
        }
        const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8')) as { pluginReports: unknown[] };
        expect(report.pluginReports).toEqual([]);
      } finally {
        rmSync(outdir, { recursive: true, force: true });
      }
    },
    600_000, // a full CLI synth, bundling every function when the bundle cache is cold: minutes on the shared, loaded 2-core machine
  );

  it.each([
    [{ stage: 'mainnet' }, 'stage'],
    [{ ...deployedStageContext('beta'), mailFrom: undefined }, 'mailFrom'],
  ])(
    'rejects a bad or missing context value with a message naming the key (%j)',
    (context, key) => {
      const outdir = mkdtempSync(join(tmpdir(), 'sentinel-cli-'));
      try {
        const run = spawnSync(CDK_JSON_APP, {
          cwd: PROJECT_ROOT,
          shell: true,
          env: { ...process.env, ...NO_NETWORK, CDK_CONTEXT_JSON: JSON.stringify(context), CDK_OUTDIR: outdir },
          encoding: 'utf8',
          timeout: 60_000,
        });
        expect(run.status).toBe(1);
        expect(run.stderr).toContain(`context "${key}"`);
      } finally {
        rmSync(outdir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
