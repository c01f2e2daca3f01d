import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderChartPng } from '../../../functions/mail/chart/chart';
import { renderEmail } from '../../../functions/mail/render/render';
import { EMAIL_KINDS } from '../../../functions/mail/render/views';
import { BUNDLE_SETTINGS, bundleCopies, esbuildOptions, writeGeneratedFiles } from '../../../infra/bundling/bundleSettings';
import { HANDLER_CATALOG, HANDLER_NAMES, type HandlerName } from '../../../functions/config/handlerCatalog';
import { PROJECT_ROOT } from '../../../infra/bundling/handlerEntry';
import { TIME_ZONE, curves, views } from '../../../local/mailSamples';
import { mimeOf, withoutRandomBoundaries } from '../fixtures/mimeOf';
import { BUNDLE_SOURCES } from '../../support/infra/bundleCache';
import { benchBundle } from '../../support/infra/benchBundles';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'sentinel-bundle-contents-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What both mailers (alerts and reports) read and record: the account and its curves, keys, mutes, recipients' choices, deliveries, chats. */
const MAILERS = ['accountHistory', 'accounts', 'alertState', 'channels', 'curves', 'delegateView', 'delivery', 'preferences', 'suppression'];

/** The repositories each handler builds (`someRepositoriesFrom`); any other one in its bundle came through a shared module. */
const REPOSITORIES: Readonly<Record<HandlerName, readonly string[]>> = {
  // accountHistory: the desk's alert history and deliveries, recorded where they happen; deskOperators: the marked operators told too.
  dispatch: ['accountSchedule', 'accounts'],
  // deskSummary: the desk overview's row, written after each poll.
  collect: ['accountHistory', 'accounts', 'alertState', 'curves', 'decision', 'delegateView', 'deskSummary', 'knownDelegates', 'snapshots'],
  // accountHistory, accounts: a missed report listed in its accounts' deliveries, to the recipients it was for.
  'report-dispatch': ['accountHistory', 'accountSchedule', 'accounts', 'deskOperators', 'missedReports', 'recipients', 'reportLedger'],
  notify: [...MAILERS, 'deskOperators', 'onboardingBatch', 'onboardingProgress'].sort(),
  'daily-report': [...MAILERS, 'accountSchedule', 'recipients', 'reportLedger', 'reportRecords'].sort(),
  // channels: the one a chat's link names (its link epoch), on both pages and the signer.
  'revoke-page': ['accounts', 'channels', 'delegateView', 'preferences', 'suppression', 'token'],
  'revoke-all-page': ['accounts', 'channels', 'delegateView', 'revokeAll'],
  'revoke-all-worker': ['revokeAll', 'token'],
  'decision-worker': [],
  // alertState, curves, delegateView: a chat's mutes, the chart, the revoke-all count.
  'channel-fanout': ['accounts', 'alertState', 'channels', 'curves', 'delegateView'],
  // pagerIncidents: a PagerDuty resolve goes only where a trigger was accepted. No fan-out's reads: that is channel-fanout.
  'channel-worker': ['accountHistory', 'channelBacklog', 'channels', 'delivery', 'pace', 'pagerIncidents'],
  'preferences-page': ['accountHistory', 'accounts', 'alertState', 'channels', 'delivery', 'preferences', 'token'],
  'desk-page': [
    'accountHistory',
    'accounts',
    'alertState',
    'channels',
    'curves',
    'decision',
    'delegateView',
    'deskChallenge',
    'deskChannelTest',
    'deskOperators',
    'deskRate',
    'deskRecipient',
    'deskSession',
    'deskSignIn',
    'deskSummary',
    'knownDelegates',
    'passkey',
    'recipients',
    'snapshots',
  ],
  // channels: the tested channel, read and its state recorded.
  'channel-test': ['channels'],
  'sign-revocation': ['accounts', 'audit', 'channels', 'decision', 'delegateView', 'knownDelegates', 'lease', 'protectionLedger', 'token'],
  // accounts and preferences: who a bounced address gets security notices for; delivery: the operator told once.
  'ses-events': ['accountHistory', 'accounts', 'delivery', 'deskOperators', 'preferences', 'suppression'],
};

/** Project code a handler never runs: the report service and the chain client reached notify through the mailers' shared composition (2026-11-23, +28 KB). */
const NEVER_IN: Partial<Record<HandlerName, readonly RegExp[]>> = {
  // The desk invokes `channel-test`: no channel sender, no channel test, no channel secrets in the internet-facing function.
  'desk-page': [/^functions\/channels\//, /^functions\/services\/channels\//, /^functions\/runtime\/channelSenderFrom\.ts$/],
  notify: [
    /^functions\/services\/report\//,
    /^functions\/chain\/(chainClient|httpTransport)\.ts$/,
    /^functions\/runtime\/(digestSenderFor|reportMailerDepsFromEnv)\.ts$/,
  ],
  dispatch: [/^functions\/services\/(notify|report|revocation)\//, /^functions\/mail\//, /^functions\/chain\/chainClient\.ts$/],
  // report-dispatch sends the missed-report notice to OPERATOR_EMAIL: MIME and the SES sender, but no rendering.
  'report-dispatch': [
    /^functions\/services\/(notify|collect|revocation)\//,
    /^functions\/mail\/(?!send\/(sesSender|mime)\.ts|errors\.ts)/,
    /^functions\/chain\/chainClient\.ts$/,
  ],
  // The operator notice about a bounced security recipient: MIME, the SES sender and its history entry, but no rendering.
  'ses-events': [
    /^functions\/services\/(notify|report|collect|revocation)\//,
    /^functions\/mail\/(?!send\/(sesSender|mime|mailDeliveryEntry)\.ts|errors\.ts)/,
    /^functions\/chain\//,
  ],
  // The revoke-all page queues; only the worker calls the signer, and neither renders email.
  'revoke-all-page': [
    /^functions\/web\/lambdaRevocationSigner\.ts$/,
    /^functions\/services\/revocation\/runRevokeAllUnit\.ts$/,
    /^functions\/mail\/(?!render\/(views|format)\.ts)/,
  ],
  'revoke-all-worker': [/^functions\/web\/(revokeAllPage|pageHandler)\.ts$/, /^functions\/mail\//, /^functions\/chain\//],
  // The channel worker sends no email (a channel it marks broken goes to the notify queue) and draws no chart:
  // a published event's fan-out (and its chart) is channel-fanout's.
  'channel-worker': [
    /^functions\/services\/(report|revocation|collect)\//,
    /^functions\/services\/notify\//,
    /^functions\/services\/delivery\/mailDelivery\.ts$/,
    /^functions\/mail\/(send|chart)\//,
    /^functions\/mail\/(render\/emailRenderer|render\/precompiledTemplates)\.ts$/,
    /^functions\/chain\/chainClient\.ts$/,
  ],
  // The fan-out queues jobs and sends nothing itself: no channel sender, no email; it draws a drawdown's chart
  // (over the lookback collection evaluates with: collectSettings, data only).
  'channel-fanout': [
    /^functions\/services\/(report|revocation)\//,
    /^functions\/services\/collect\/(?!collectSettings\.ts$)/,
    /^functions\/services\/channels\//,
    /^functions\/channels\/(channelSender|channelSecrets|destinationGuard)\.ts$/,
    /^functions\/services\/delivery\/mailDelivery\.ts$/,
    /^functions\/mail\/send\//,
    /^functions\/mail\/(render\/emailRenderer|render\/precompiledTemplates)\.ts$/,
    /^functions\/chain\/chainClient\.ts$/,
  ],
};

/** Exceptions to `NEVER`, by handler. */
const NEVER_EXCEPT: Partial<Record<HandlerName, readonly string[]>> = {
  // Channel secrets (`secret:` references) are read with Powertools' getSecret, cached for the instance's life;
  // undici's Agent pins each send to the addresses its destination was checked at (no second DNS lookup).
  'channel-worker': ['@aws-lambda-powertools/parameters', 'undici'],
  // The stage-wide protection switch (an SSM parameter), read at signing time with a short cache.
  'sign-revocation': ['@aws-lambda-powertools/parameters'],
  // The same switch, read by the protection service before it queues an automatic revocation.
  collect: ['@aws-lambda-powertools/parameters'],
  // The desk's Test button's function sends through the channel worker's own sender (its secrets, its pinned connections);
  // the desk page itself only invokes it, and holds neither.
  'channel-test': ['@aws-lambda-powertools/parameters', 'undici'],
};
/** Packages no bundle may hold: the SDK's full credential chain (aliased away), `source-map` (Handlebars' compiler only; the bundles have its runtime), mnemonist (aliased to its stand-in), juice's HTML stack (replaced by inlineCss), viem (only its types are used; the deployed signer is KMS-only), Powertools parameters (one GetSecretValue per cold start). */
const NEVER = [
  'mnemonist',
  '@aws-sdk/credential-provider-node',
  '@aws-sdk/nested-clients',
  'source-map',
  'juice',
  'cheerio',
  'undici',
  'parse5',
  'iconv-lite',
  'viem',
  '@aws-lambda-powertools/parameters',
];

interface BundleContents {
  readonly packages: Set<string>;
  readonly inputs: string[];
}

/** The files that put code into the bundle (tree-shaken ones contribute no bytes), and their packages. */
function contentsOf(metafile: Metafile): BundleContents {
  const inputs = Object.values(metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
      .map(([path]) => path),
  );
  const packages = new Set<string>();
  for (const input of inputs) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(input);
    if (match?.[1]) packages.add(match[1]);
  }
  return { packages, inputs };
}

describe('what each Lambda bundle holds', () => {
  const bundles = new Map<HandlerName, BundleContents>();
  /** Every file esbuild read for any handler, tree-shaken ones included. */
  const read = new Set<string>();

  beforeAll(async () => {
    for (const name of HANDLER_NAMES) {
      const { metafile } = await benchBundle(name);
      bundles.set(name, contentsOf(metafile));
      for (const input of Object.keys(metafile.inputs)) read.add(input);
    }
  }, 120_000);

  it.each(HANDLER_NAMES)('%s holds exactly the SDK clients the handler catalog lists', (name) => {
    const clients = [...(bundles.get(name)?.packages ?? [])].filter((p) => p.startsWith('@aws-sdk/client-')).map((p) => p.slice('@aws-sdk/'.length));
    expect(clients.sort()).toEqual([...HANDLER_CATALOG[name].sdkClients]);
  });

  it.each(HANDLER_NAMES)('%s holds exactly the repositories it builds', (name) => {
    const inputs = bundles.get(name)?.inputs ?? expect.fail(name);
    const repositories = inputs.map((i) => /^functions\/store\/(\w+)Repository\.ts$/.exec(i)?.[1]).filter((r) => r !== undefined && r !== 'dynamo');
    expect(repositories.sort()).toEqual(REPOSITORIES[name]);
  });

  it.each(HANDLER_NAMES)('%s holds no project code only other handlers run', (name) => {
    const inputs = bundles.get(name)?.inputs ?? expect.fail(name);
    for (const pattern of NEVER_IN[name] ?? [])
      expect(
        inputs.filter((i) => pattern.test(i)),
        String(pattern),
      ).toEqual([]);
  });

  it('keeps the report service and the chain client in daily-report (what notify must not hold is real code)', () => {
    const inputs = bundles.get('daily-report') ?? expect.fail('daily-report');
    for (const pattern of NEVER_IN.notify ?? [])
      expect(
        inputs.inputs.some((i) => pattern.test(i)),
        String(pattern),
      ).toBe(true);
  });

  it.each(HANDLER_NAMES)('%s has environment credentials instead of the default chain, and none of the replaced packages', (name) => {
    const bundle = bundles.get(name) ?? expect.fail(name);
    expect(bundle.inputs).toContain('functions/runtime/lambdaCredentials.ts');
    for (const pkg of NEVER.filter((p) => !(NEVER_EXCEPT[name] ?? []).includes(p))) expect(bundle.packages.has(pkg), pkg).toBe(false);
  });

  it.each(HANDLER_NAMES)(
    '%s has the LRU cache stand-in for the DynamoDB client (if it has one), and every other module of a dependency as published (nothing rewritten)',
    (name) => {
      const bundle = bundles.get(name) ?? expect.fail(name);
      const standIns = (HANDLER_CATALOG[name].sdkClients as readonly string[]).includes('client-dynamodb') ? ['infra/bundling/lruCacheStandIn.ts'] : [];
      const notFromFiles = bundle.inputs.filter((i) => !existsSync(resolve(PROJECT_ROOT, i)));
      expect(notFromFiles).toEqual([]);
      expect(bundle.inputs.filter((i) => i.startsWith('infra/')).sort()).toEqual(standIns);
    },
  );

  it("keeps nodemailer's MailComposer in the mailer bundles", () => {
    for (const name of ['notify', 'daily-report'] as const) {
      const inputs = bundles.get(name)?.inputs ?? expect.fail(name);
      expect(
        inputs.some((i) => /node_modules\/nodemailer\/(lib|dist\/(cjs|esm))\/mail-composer\//.test(i)),
        `${name} keeps MailComposer`,
      ).toBe(true);
    }
  });

  it('reads nothing the test bundle cache does not fingerprint (its sources) or the lockfile pins (node_modules)', () => {
    expect(read.size).toBeGreaterThan(100);
    const covered = (input: string): boolean =>
      input.startsWith('node_modules/') ||
      BUNDLE_SOURCES.folders.some((folder) => input.startsWith(`${folder}/`)) ||
      (BUNDLE_SOURCES.files as readonly string[]).includes(input);
    expect([...read].filter((input) => !covered(input))).toEqual([]);
  });

  it('leaves the Handlebars compiler out of the mailer bundles', () => {
    for (const name of ['notify', 'daily-report'] as const) {
      const handlebars = (bundles.get(name)?.inputs ?? []).filter((i) => i.includes('node_modules/handlebars/'));
      expect(handlebars.length, name).toBeGreaterThan(0);
      expect(
        handlebars.filter((i) => i.includes('/compiler/')),
        name,
      ).toEqual([]);
    }
  });
});

describe('an SDK client in a bundle', () => {
  const requests: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    requests.push(req.headers);
    req.resume().on('end', () => {
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify({ TableNames: ['sentinel-accounts'] }));
    });
  });
  let bundle: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await build(esbuildOptions(join(PROJECT_ROOT, 'test', 'infra', 'fixtures', 'listTables.ts'), join(work, 'sdk'), []));
    bundle = join(work, 'sdk', BUNDLE_SETTINGS.outFile);
  }, 60_000);
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const call = async (env: Record<string, string>) => {
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { stdout } = await run(process.execPath, [bundle], { env: { PATH: process.env['PATH'] ?? '', HOME: work, ENDPOINT: endpoint, ...env } });
    return JSON.parse(stdout) as { tables?: string[]; error?: string };
  };

  it('signs with the credentials Lambda puts in the environment', async () => {
    const out = await call({ AWS_ACCESS_KEY_ID: 'AKIDBUNDLETEST', AWS_SECRET_ACCESS_KEY: 'bundle-secret', AWS_SESSION_TOKEN: 'bundle-session' });
    expect(out).toEqual({ tables: ['sentinel-accounts'] });
    const headers = requests.at(-1) ?? expect.fail('no request');
    expect(headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDBUNDLETEST\/\d{8}\/us-east-1\/dynamodb\/aws4_request/);
    expect(headers['x-amz-security-token']).toBe('bundle-session');
  });

  it('fails naming the missing variables (the replacement, not the SDK chain, is in the bundle)', async () => {
    const before = requests.length;
    const out = await call({});
    expect(out.error).toBe('no AWS credentials in the environment: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY not set');
    expect(requests.length).toBe(before);
  });
});

describe('the email renderer in a bundle', () => {
  it('renders every email (precompiled templates, as the mailer handlers build them), its MIME message and a chart exactly as from source', async () => {
    const out = join(work, 'render');
    await build(esbuildOptions(join(PROJECT_ROOT, 'test', 'infra', 'fixtures', 'renderEmails.ts'), out, HANDLER_CATALOG.notify.bundle.nativeModules));
    for (const { from, to } of bundleCopies('notify', process.arch === 'arm64' ? 'arm64' : 'x64'))
      cpSync(resolve(PROJECT_ROOT, from), join(out, to), { recursive: true });
    writeGeneratedFiles('notify', out);
    const env = {
      PATH: process.env['PATH'] ?? '',
      TEMPLATES_DIR: join(out, 'templates'),
      SENTINEL_TABLE_PREFIX: 'test-',
      PUBLIC_BASE_URL: 'https://links.example.com',
      CHANNEL_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/channel',
      FANOUT_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/fanout',
      SENTINEL_LINK_SECRET: 'x'.repeat(32),
      MAIL_RATE: '14',
      ROCKET_NODE_URL: 'http://127.0.0.1:9',
      ROCKET_INDEXER_URL: 'http://127.0.0.1:9/indexer',
    };
    const { stdout } = await run(process.execPath, [join(out, BUNDLE_SETTINGS.outFile)], { env, maxBuffer: 16 * 1024 * 1024 });
    const bundled = JSON.parse(stdout) as Record<string, Record<string, unknown>> & { chartPng: string; mime: Record<string, string> };
    for (const handler of ['notify', 'daily-report']) {
      for (const kind of EMAIL_KINDS)
        expect(bundled[handler]?.[kind], `${handler} ${kind}`).toEqual(renderEmail(kind, views[kind] as never, { timeZone: TIME_ZONE }));
    }
    const chart = renderChartPng({ ...curves(3), timeZone: TIME_ZONE });
    expect(Buffer.from(bundled.chartPng, 'base64').equals(chart), 'chart PNG').toBe(true);
    for (const kind of EMAIL_KINDS) {
      const fromSource = (await mimeOf(renderEmail(kind, views[kind] as never, { timeZone: TIME_ZONE }), chart)).toString('latin1');
      expect(withoutRandomBoundaries(bundled.mime[kind] ?? ''), `${kind} MIME`).toBe(withoutRandomBoundaries(fromSource));
    }
  }, 60_000);
});
