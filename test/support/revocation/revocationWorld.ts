import { unescapeHtml } from '../htmlText';
import { sesSender } from '../delivery/mailHarness';
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileProtectionSwitch } from '../../../functions/store/fileProtectionSwitch';
import type { APIGatewayProxyEventV2, Context, SQSEvent } from 'aws-lambda';
import { createChainClient } from '../../../functions/chain/chainClient';
import type { ChainClient } from '../../../functions/chain/ports';
import { resolveSigner } from '../../../functions/chain/resolveSigner';
import { accountSettingsSchema } from '../../../functions/domain/account';
import { newTrackedAccount } from '../../../functions/domain/trackedAccount';
import type { createRevokePageHandler } from '../../../functions/handlers/revoke-page';
import { createSignRevocationHandler } from '../../../functions/handlers/sign-revocation';
import { ActionLinks } from '../../../functions/links/actionLinks';
import { LinkTokenCodec } from '../../../functions/links/linkToken';
import { LinkClaimsReader } from '../../../functions/links/linkReader';
import { issueClaims } from '../../../functions/domain/linkClaims';
import { InProcessRevocationSigner } from '../../../local/inProcessRevocationSigner';
import { notifyMessageSchema, type NotifyEvent, type NotifyMessage } from '../../../functions/messages/notifyMessage';
import type { LinkRevocationRequest } from '../../../functions/domain/revocationOutcome';
import type { RevokeDelegateDeps } from '../../../functions/services/revocation/revokeDelegate';
import { silentLog } from '../../../functions/shared/observability';
import { createRepositories, type Repositories } from '../../../functions/store/repositories';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TokenUse } from '../../../functions/store/tokenRepository';
import { CsrfTokens } from '../../../functions/web/csrfToken';
import { startLambdaHttpServer, type HttpRoute, type LambdaHttpServer } from '../../../local/http/lambdaHttpAdapter';
import { InProcessQueue, type SqsLambdaHandler } from '../../../local/queue/inProcessQueue';
import { SimControlClient } from '../../../local/sim/controlClient';
import { startSimulator, type RunningSimulator } from '../../../local/sim/http/server';
import { testTables, type TestTables } from '../testTables';
import { perFile } from '../perFile';
import { createNotifyHandler } from '../../../functions/handlers/notify';
import { sharedRenderer } from '../delivery/mailHarness';
import { createRevokeAllPageHandler } from '../../../functions/handlers/revoke-all-page';
import type { RevokeAllLimits } from '../../../functions/web/revokeAllPage';
import type { RevokeAllJob } from '../../../functions/messages/revokeAllJob';
import { createRevokeAllWorkerHandler } from '../../../functions/handlers/revoke-all-worker';
import { memoryCounters } from '../../../functions/shared/observability';
import { channelRecordOf } from '../channels/channelRecordFixture';
import { signerCallOf } from '../../../functions/web/signerCallOf';
import type { DecisionJob } from '../../../functions/messages/decisionJob';
import type { MessageQueue } from '../../../functions/queue/messageQueue';
import type { ProtectiveRevoker } from '../../../functions/domain/protectiveAction';
import { protectionService } from '../../../functions/services/protection/protect';
import { registerDelegateViews } from '../store/delegateViews';
import { revokePageOf } from './linkPages';
import { preferencesPageOf } from './linkPages';

export const LINK_SECRET = 'revocation-tests-link-secret-0123456789abcdef';
export const HOUR = 3_600_000;
/** How old a protective decision the world's signer still signs for. */
export const DECISION_MAX_AGE_MS = 5 * 60_000;

/** A tracked simulator account with delegates, its owner key in the test's own env map. */
export interface TrackedSimAccount {
  address: `0x${string}`;
  privateKey: string;
  delegates: { address: `0x${string}`; name: string }[];
  emails: string[];
}

/**
 * Everything the revocation tests run against: the chain simulator over HTTP, the tables of the
 * test file in DynamoDB Local, the real handlers (`revoke-page`, `preferences-page`,
 * `sign-revocation`) behind the local Lambda HTTP adapter, and an in-process notify queue whose
 * consumer records what it is given.
 */
export interface RevocationWorld {
  readonly sim: RunningSimulator;
  readonly control: SimControlClient;
  readonly repos: Repositories;
  readonly chain: ChainClient;
  readonly server: LambdaHttpServer;
  readonly links: ActionLinks;
  /** Environment the signer resolves `env:` references in (never `process.env`). */
  readonly signerEnv: Record<string, string | undefined>;
  readonly notify: InProcessQueue<NotifyEvent>;
  /** The revoke-all queue and its real consumer (one delegate at a time, through the in-process signer). */
  readonly revokeAll: InProcessQueue<RevokeAllJob>;
  /** A revoke-all link for `account`. */
  revokeAllLink(account: `0x${string}`, now?: number): string;
  /** Notify messages delivered so far (after `notify.drain()`). */
  readonly notified: NotifyMessage[];
  /**
   * Called after each nonce read of the signing side, before it builds its transaction: a test
   * sets it to make another transaction land in between (through the control API).
   */
  afterNonceRead: ((account: string, nonce: number) => Promise<void>) | null;
  /**
   * Called when the signing side is about to read the consumed token: a test sets it to make
   * another invocation use the token first.
   */
  beforeTokenCheck: ((tokenId: string) => Promise<void>) | null;
  /**
   * Called when the signing side is about to read the channel a chat's link names (the page has
   * read it already): a test sets it to remove the channel or withdraw its links in between.
   */
  beforeChannelCheck: ((channel: string) => Promise<void>) | null;
  /** The stage-wide switch the signer reads (a file of this world; off until a test turns it on). */
  readonly protection: FileProtectionSwitch;
  /** Deps of the signing handler, for service-level tests (override what a test needs). */
  readonly signDeps: RevokeDelegateDeps;
  trackAccount(options: { label: string; delegates: string[]; signer?: 'env' | 'none'; registerViews?: boolean }): Promise<TrackedSimAccount>;
  /** What the chain says of `account` now: its nonce and the delegates it lists. */
  chainState(account: string): Promise<{ nonce: number; delegates: string[] }>;
  revokeLink(account: `0x${string}`, delegate: `0x${string}`, now?: number): string;
  /**
   * Signs a revoke link for `account` and `delegate` (valid an hour) and consumes its token as the
   * page does (`stored` overrides what the token record says), and returns the request the page
   * would send, the signed link with it: what service-level tests hand to the signing side.
   */
  consumedRequest(account: `0x${string}`, delegate: `0x${string}`, stored?: Partial<TokenUse>): Promise<LinkRevocationRequest>;
  /** Adds a Slack channel `name` (created a second ago) that `account`'s notices go to: the channel a chat's link names. */
  addChatChannel(name: string, account: `0x${string}`): Promise<void>;
  close(): Promise<void>;
}

let envCounter = 0;

/** The functions of a revocation world that write to the store, each as deployed (a role of its own). */
export type WorldRole = 'revoke-page' | 'revoke-all-page' | 'revoke-all-worker' | 'preferences-page' | 'sign-revocation';

/** Builds the real notify consumer once the world's repositories and links exist (end-to-end tests). */
export type NotifyConsumerFactory = (parts: { repos: Repositories; links: ActionLinks }) => SqsLambdaHandler;

/** The real notify consumer for a revocation world: renders with the templates and sends through the run's local SES. */
export const mailingNotifyConsumer =
  (options: { operatorEmail?: string } = {}): NotifyConsumerFactory =>
  ({ repos, links }) =>
    createNotifyHandler({
      repos,
      sender: sesSender(inject('sesEndpoint'), 3),
      renderer: sharedRenderer(),
      links,
      mailFrom: 'sentinel@example.com',
      log: silentLog,
      counters: memoryCounters(),
      now: Date.now,
      ...options,
    });

/**
 * The revocation world of one test file (call at the top of a file or `describe`): this file's
 * tables and `startRevocationWorld` over them, started before the tests and closed after them.
 */
export function revocationWorld(options: Parameters<typeof startRevocationWorld>[1] = {}): RevocationWorld & { readonly tables: TestTables } {
  const tables = testTables();
  return perFile(
    'the revocation world',
    async () => Object.assign(await startRevocationWorld(tables, options), { tables }),
    (world) => world.close(),
  );
}

export async function startRevocationWorld(
  tables: TestTables,
  options: {
    notifyConsumer?: NotifyConsumerFactory;
    /** More routes served on the world's server (its origin): the desk page, whose Revoke buttons lead to `/revoke` on the same origin as deployed. */
    routes?: readonly HttpRoute[];
    /** The DynamoDB client a function uses instead of the world's (one that records what it sends), for the same tables (`prefix`). */
    clientOf?: (role: WorldRole, prefix: string) => DynamoDBDocumentClient | undefined;
    /** The revoke-all page's limits (default the deployed ones): small, a test walks its pages with a few keys. */
    revokeAllLimits?: RevokeAllLimits;
  } = {},
): Promise<RevocationWorld> {
  const sim = await startSimulator({ seed: 7 });
  const control = new SimControlClient(sim.controlUrl);
  const repos = createRepositories(tables.client, tables.prefix);
  const reposOf = (role: WorldRole): Repositories => {
    const client = options.clientOf?.(role, tables.prefix);
    return client ? createRepositories(client, tables.prefix) : repos;
  };
  const signerRepos = reposOf('sign-revocation');
  const workerRepos = reposOf('revoke-all-worker');
  const revokeAllPageRepos = reposOf('revoke-all-page');
  const realChain = createChainClient({
    nodeUrl: sim.nodeUrl,
    indexerUrl: sim.indexerUrl,
    rps: 1_000,
    timeoutMs: 2_000,
    maxRetries: 1,
    retryBaseDelayMs: 5,
    retryMaxDelayMs: 20,
  });
  const hooks: Pick<RevocationWorld, 'afterNonceRead' | 'beforeTokenCheck' | 'beforeChannelCheck'> = {
    afterNonceRead: null,
    beforeTokenCheck: null,
    beforeChannelCheck: null,
  };
  const chain: ChainClient = {
    ...realChain,
    async getAccountNonce(account) {
      const nonce = await realChain.getAccountNonce(account);
      await hooks.afterNonceRead?.(account, nonce.nonce);
      return nonce;
    },
  };
  const signerEnv: Record<string, string | undefined> = {};
  const protection = new FileProtectionSwitch(join(await mkdtemp(join(tmpdir(), 'protection-')), 'protection'));
  const notified: NotifyMessage[] = [];
  const consumer: { next?: SqsLambdaHandler } = {};
  const notify = new InProcessQueue<NotifyEvent>({
    name: 'notify',
    consumer: async (event: SQSEvent, context: Context) => {
      for (const record of event.Records) notified.push(notifyMessageSchema.parse(JSON.parse(record.body)));
      return consumer.next?.(event, context);
    },
  });
  const codec = new LinkTokenCodec(LINK_SECRET);
  const signDeps: RevokeDelegateDeps = {
    accounts: signerRepos.accounts,
    leases: signerRepos.leases,
    audit: signerRepos.audit,
    // The signer verifies a click's link with public keys only, as deployed.
    links: new LinkClaimsReader(codec.verifier()),
    channels: {
      async get(name) {
        await hooks.beforeChannelCheck?.(name);
        return signerRepos.channels.get(name);
      },
    },
    tokens: {
      async get(tokenId) {
        await hooks.beforeTokenCheck?.(tokenId);
        return signerRepos.tokens.get(tokenId, 'revoke');
      },
      markSigned: (tokenId, consumedAt) => signerRepos.tokens.markSigned(tokenId, consumedAt),
      recordOutcome: (tokenId, outcome) => signerRepos.tokens.recordOutcome(tokenId, outcome),
      recordRefusal: (tokenId, consumedAt, refusal) => signerRepos.tokens.recordRefusal(tokenId, consumedAt, refusal),
    },
    notify,
    delegates: signerRepos.delegates,
    chain,
    signerFor: (ref) => resolveSigner(ref, { env: signerEnv }),
    now: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    log: silentLog,
    automatic: {
      decisions: signerRepos.decisions,
      knownDelegates: signerRepos.knownDelegates,
      ledger: signerRepos.protectionLedger,
      protection,
      maxAgeMs: DECISION_MAX_AGE_MS,
      breakerAccounts: 5,
    },
  };
  const signer = new InProcessRevocationSigner(createSignRevocationHandler(signDeps));
  const revokeAll = new InProcessQueue<RevokeAllJob>({
    name: 'revoke-all',
    consumer: createRevokeAllWorkerHandler({
      batches: workerRepos.revokeAll,
      tokens: workerRepos.tokens,
      sign: signerCallOf(signer),
      notify,
      now: Date.now,
      log: silentLog,
      counters: memoryCounters(),
    }),
  });

  // The handlers need the server's URL (their PUBLIC_BASE_URL), so they are set once it listens.
  const pages: Partial<
    Record<'revoke' | 'revokeAll' | 'preferences', (event: APIGatewayProxyEventV2, context: Context) => ReturnType<ReturnType<typeof createRevokePageHandler>>>
  > = {};
  const server = await startLambdaHttpServer({
    routes: [
      { path: '/revoke', functionName: 'revoke-page', handler: (event, context) => pages.revoke!(event, context) },
      { path: '/revoke-all', functionName: 'revoke-page', handler: (event, context) => pages.revokeAll!(event, context) },
      { path: '/unsubscribe', functionName: 'preferences-page', handler: (event, context) => pages.preferences!(event, context) },
      { path: '/snooze', functionName: 'preferences-page', handler: (event, context) => pages.preferences!(event, context) },
      { path: '/preferences', functionName: 'preferences-page', handler: (event, context) => pages.preferences!(event, context) },
      ...(options.routes ?? []),
    ],
  });
  const links = new ActionLinks(codec, server.url);
  const csrf = new CsrfTokens(LINK_SECRET);
  if (options.notifyConsumer) consumer.next = options.notifyConsumer({ repos, links });
  const parts = { repos, links, secret: LINK_SECRET, publicBaseUrl: server.url, now: Date.now };
  pages.revoke = revokePageOf({ ...parts, repos: reposOf('revoke-page'), signer });
  pages.revokeAll = createRevokeAllPageHandler({
    links,
    csrf,
    publicBaseUrl: server.url,
    accounts: revokeAllPageRepos.accounts,
    delegates: revokeAllPageRepos.delegates,
    batches: revokeAllPageRepos.revokeAll,
    channels: revokeAllPageRepos.channels,
    queue: revokeAll,
    now: Date.now,
    log: silentLog,
    ...(options.revokeAllLimits ? { limits: options.revokeAllLimits } : {}),
  });
  pages.preferences = preferencesPageOf({ ...parts, repos: reposOf('preferences-page') });

  return {
    get afterNonceRead() {
      return hooks.afterNonceRead;
    },
    set afterNonceRead(hook) {
      hooks.afterNonceRead = hook;
    },
    get beforeTokenCheck() {
      return hooks.beforeTokenCheck;
    },
    set beforeTokenCheck(hook) {
      hooks.beforeTokenCheck = hook;
    },
    get beforeChannelCheck() {
      return hooks.beforeChannelCheck;
    },
    set beforeChannelCheck(hook) {
      hooks.beforeChannelCheck = hook;
    },
    sim,
    control,
    repos,
    chain,
    server,
    links,
    signerEnv,
    protection,
    notify,
    revokeAll,
    revokeAllLink: (account, now = Date.now()) => links.build({ purpose: 'revoke-all', account }, now),
    notified,
    signDeps,
    async trackAccount({ label, delegates, signer: signerKind = 'env', registerViews = true }) {
      const created = await control.createAccount({ label, historyDays: 1 });
      const added = [];
      for (const name of delegates) {
        const result = await control.addDelegate(created.address, { name, expiresInMs: 48 * HOUR });
        added.push({ address: result.delegate.address as `0x${string}`, name });
      }
      const variable = `OWNER_KEY_${++envCounter}`;
      if (signerKind === 'env') signerEnv[variable] = created.privateKey;
      const emails = [`owner+${label.replace(/[^A-Za-z0-9-]/g, '-')}-${randomUUID().slice(0, 8)}@example.com`];
      const settings = accountSettingsSchema.parse({
        address: created.address,
        emails,
        label,
        signer: signerKind === 'env' ? `env:${variable}` : null,
      });
      const now = Date.now();
      await repos.accounts.create(newTrackedAccount(settings, now));
      if (registerViews) {
        await registerDelegateViews(repos, realChain, settings.address, now);
      }
      return { address: settings.address, privateKey: created.privateKey, delegates: added, emails };
    },
    async chainState(account) {
      const view = await control.account(account);
      return { nonce: view.nonce, delegates: view.delegates.map((d) => d.address) };
    },
    revokeLink(account, delegate, now = Date.now()) {
      return links.build({ purpose: 'revoke', account, delegate }, now);
    },
    async consumedRequest(account, delegate, stored = {}) {
      const tokenId = `consumed-${randomUUID()}`;
      const token = codec.sign('revoke', issueClaims({ purpose: 'revoke', account, delegate }, tokenId, Date.now(), HOUR));
      const consumed = await repos.tokens.consume(tokenId, { purpose: 'revoke', account, delegate, expiresAt: Date.now() + HOUR, ...stored });
      if (consumed.kind !== 'consumed') throw new Error(`token ${tokenId} was already consumed`);
      return { account, delegate, tokenId, token };
    },
    async addChatChannel(name, account) {
      await repos.channels.create(channelRecordOf({ name, type: 'slack', secret: 'env:SLACK', accounts: [account] }, Date.now() - 1_000));
    },
    async close() {
      await server.close();
      await sim.close();
    },
  };
}

/** The protection service over the world's switch and stores, queueing on a test's decision queue (consumed by the real decision worker and signer). */
export function worldProtection(world: RevocationWorld, queue: MessageQueue<DecisionJob>): ProtectiveRevoker {
  return protectionService({
    protection: world.protection,
    accounts: world.repos.accounts,
    knownDelegates: world.repos.knownDelegates,
    decisions: world.repos.decisions,
    queue,
    log: silentLog,
  });
}

/** A page as a browser would get it. */
export interface Page {
  status: number;
  headers: Headers;
  html: string;
}

export async function getPage(url: string, headers: Record<string, string> = {}): Promise<Page> {
  const res = await fetch(url, { headers, redirect: 'manual' });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** The confirmation form of a page: where it posts and its hidden fields. */
export function formOf(page: Page): { action: string; fields: Record<string, string> } {
  const form = /<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(page.html);
  if (!form) throw new Error(`no form on the page (status ${page.status})`);
  const fields: Record<string, string> = {};
  for (const input of (form[2] ?? '').matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[input[1] ?? ''] = unescapeHtml(input[2] ?? '');
  }
  return { action: unescapeHtml(form[1] ?? ''), fields };
}

/** Submits a form as a browser on `origin` would (Origin and Sec-Fetch-Site set unless overridden). */
export async function submitForm(
  action: string,
  fields: Record<string, string>,
  headers: Record<string, string> = { origin: new URL(action).origin, 'sec-fetch-site': 'same-origin' },
): Promise<Page> {
  const res = await fetch(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** The heading of a page. */
export function titleOf(page: Page): string {
  return /<h1>([\s\S]*?)<\/h1>/.exec(page.html)?.[1] ?? '';
}
