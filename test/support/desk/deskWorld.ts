import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { expect } from 'vitest';
import { unescapeHtml } from '../htmlText';
import { ChannelSecrets } from '../../../functions/channels/channelSecrets';
import type { ChannelSenderDeps } from '../../../functions/channels/channelSender';
import { deskRepositoryDeps, createDeskPageHandler } from '../../../functions/handlers/desk-page';
import { ActionLinks } from '../../../functions/links/actionLinks';
import { LinkTokenCodec } from '../../../functions/links/linkToken';
import type { ChannelTester } from '../../../functions/services/desk/channelTester';
import { inProcessChannelTester } from '../../../functions/services/desk/inProcessChannelTester';
import { signInMail } from '../../../functions/services/desk/signInMail';
import { silentLog } from '../../../functions/shared/observability';
import { createRepositories, type Repositories } from '../../../functions/store/repositories';
import { CsrfTokens } from '../../../functions/web/csrfToken';
import { NO_DESK_ASSETS, type DeskAssets } from '../../../functions/web/desk/deskAssets';
import { startLambdaHttpServer, type HttpRoute, type LambdaHttpServer } from '../../../local/http/lambdaHttpAdapter';
import { sesSender } from '../delivery/mailHarness';
import { accountRecord, testAddress } from '../store/accountFixture';
import type { TestTables } from '../testTables';
import type { TrackedAccount } from '../../../functions/domain/account';

export const DESK_SECRET = 'desk-tests-link-secret-0123456789abcdef0123';

/** One HTTP answer, as a browser would get it (no redirect followed). */
export interface DeskResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

/**
 * The desk page behind the local Lambda HTTP adapter (its `PUBLIC_BASE_URL` is the server's URL),
 * on this test file's tables in DynamoDB Local, mailing through local SES.
 */
export interface DeskWorld {
  readonly server: LambdaHttpServer;
  /** The desk's `PUBLIC_BASE_URL` (the server's URL unless the `baseUrl` option mapped it). */
  readonly baseUrl: string;
  readonly repos: Repositories;
  readonly links: ActionLinks;
  /** Tracks an account (store only) mailing `emails`. */
  addAccount(n: number, overrides?: Partial<TrackedAccount>): Promise<TrackedAccount>;
  /** A fresh sign-in link for `email`. */
  signInLink(email: string, now?: number): string;
  close(): Promise<void>;
}

/** A client with one cookie jar, sending what a browser on the desk's origin sends. */
export interface DeskClient {
  get(pathOrUrl: string): Promise<DeskResponse>;
  /** Posts a form as a browser on the desk's origin would (Origin and Sec-Fetch-Site set unless `headers` replace them). */
  post(pathOrUrl: string, fields: Record<string, string>, headers?: Record<string, string>): Promise<DeskResponse>;
  /** The cookie the desk set (name=value), or null. */
  cookie(): string | null;
  setCookie(value: string | null): void;
}

/** The `/desk` route of a desk world: its handler is set when the world starts, so the route can be served by a server started before it. */
export interface DeskRoute {
  readonly route: HttpRoute;
  handler?: (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;
}

/** A `/desk` route to serve beside other pages on one server (one origin, as deployed); pass it to `startDeskWorld` with that server. */
export function deskRoute(): DeskRoute {
  const slot: DeskRoute = {
    route: { path: '/desk', functionName: 'desk-page', handler: async (event, context) => (await slot.handler!(event, context)) as never },
  };
  return slot;
}

export async function startDeskWorld(
  tables: TestTables,
  options: {
    operatorEmail?: string;
    assets?: DeskAssets;
    now?: () => number;
    baseUrl?: (url: string) => string;
    repos?: Repositories;
    /** How the channels page's Test button reaches channels (default: no secret readable, loopback allowed). */
    channelSender?: ChannelSenderDeps;
    /** How the Test button has a channel tested (default: in process, through `channelSender`). */
    channelTester?: ChannelTester;
    /** The minter of the keys section's revoke links (default: the desk's own links, on its server, which serves no `/revoke`). */
    revokeLinks?: ActionLinks;
    /** Serve the desk on this server, which routes `/desk` to `route` (default: a server of its own, closed with the world). */
    on?: { server: LambdaHttpServer; route: DeskRoute };
  } = {},
): Promise<DeskWorld> {
  const repos = options.repos ?? createRepositories(tables.client, tables.prefix);
  const handler = options.on?.route ?? deskRoute();
  const server = options.on?.server ?? (await startLambdaHttpServer({ routes: [handler.route] }));
  const baseUrl = options.baseUrl ? options.baseUrl(server.url) : server.url;
  const links = new ActionLinks(new LinkTokenCodec(DESK_SECRET), baseUrl);
  const now = options.now ?? Date.now;
  const assets = options.assets ?? NO_DESK_ASSETS;
  handler.handler = createDeskPageHandler({
    reader: links,
    links,
    revokeLinks: options.revokeLinks ?? links,
    csrf: new CsrfTokens(DESK_SECRET),
    publicBaseUrl: baseUrl,
    ...deskRepositoryDeps(repos),
    // The Test button's tester in process, as the local system runs it (in AWS the desk invokes `channel-test`).
    channelTester:
      options.channelTester ??
      inProcessChannelTester(
        {
          channels: repos.channels,
          sender: options.channelSender ?? {
            secrets: new ChannelSecrets({}, null),
            bases: { telegram: server.url, pagerduty: server.url },
            policy: { loopback: true },
          },
          sleep: async () => {},
        },
        now,
      ),
    operatorEmail: options.operatorEmail ?? null,
    mail: signInMail({ sender: sesSender(), mailFrom: 'sentinel@example.com', now }),
    answerFloorMs: 0,
    sleep: async () => {},
    passkeys: assets.fileOf('passkeys.js') !== null,
    assets,
    now,
    log: silentLog,
  });
  return {
    server,
    baseUrl,
    repos,
    links,
    async addAccount(n, overrides = {}) {
      const account = accountRecord({ address: testAddress(n, 0xdec), ...overrides });
      await repos.accounts.create(account);
      return account;
    },
    signInLink: (email, at = now()) => links.build({ purpose: 'desk-sign-in', email }, at),
    close: async () => {
      if (!options.on) await server.close();
    },
  };
}

/** A cookie-keeping client of `world`'s desk. */
export function deskClient(world: Pick<DeskWorld, 'server'>, origin = world.server.url): DeskClient {
  let jar: string | null = null;
  const absolute = (pathOrUrl: string) => (pathOrUrl.startsWith('http') ? pathOrUrl : `${world.server.url}${pathOrUrl}`);
  const keep = (res: Response) => {
    const set = res.headers.get('set-cookie');
    if (set) {
      const [pair = ''] = set.split(';');
      jar = /=$/.test(pair) || /Max-Age=0/.test(set) ? null : pair;
    }
  };
  const answer = async (res: Response): Promise<DeskResponse> => ({ status: res.status, headers: res.headers, body: await res.text() });
  return {
    async get(pathOrUrl) {
      const res = await fetch(absolute(pathOrUrl), { redirect: 'manual', headers: jar ? { cookie: jar } : {} });
      keep(res);
      return answer(res);
    },
    async post(pathOrUrl, fields, headers = { origin, 'sec-fetch-site': 'same-origin' }) {
      const res = await fetch(absolute(pathOrUrl), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(jar ? { cookie: jar } : {}), ...headers },
        body: new URLSearchParams(fields).toString(),
      });
      keep(res);
      return answer(res);
    },
    cookie: () => jar,
    setCookie(value) {
      jar = value;
    },
  };
}

/** The hidden fields of the first form on a page posting to a path ending in `pathEnd`. */
export function hiddenFields(body: string, pathEnd: string): Record<string, string> {
  const forms = [...body.matchAll(/<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)];
  const form = forms.find((f) => (f[1] ?? '').endsWith(pathEnd));
  if (!form) throw new Error(`no form posting to ${pathEnd}`);
  const fields: Record<string, string> = {};
  for (const input of (form[2] ?? '').matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[input[1] ?? ''] = unescapeHtml(input[2] ?? '');
  return fields;
}

/** Signs `email` in with a fresh link through the link's page and its button; the client keeps the session cookie. */
export async function signIn(world: DeskWorld, client: DeskClient, email: string): Promise<DeskResponse> {
  const page = await client.get(world.signInLink(email));
  if (page.status !== 200) throw new Error(`sign-in page answered ${page.status}`);
  return client.post('/desk/sign-in', hiddenFields(page.body, '/desk/sign-in'));
}

/** `cursor` with one character of its position changed, its signature left as it was. */
export function changedCursor(cursor: string): string {
  return `${cursor.slice(0, 2)}${cursor[2] === 'A' ? 'B' : 'A'}${cursor.slice(3)}`;
}

/** Asks each of `paths` (an account page with a changed or misplaced "Older" cursor) and expects the 400 that shows nothing: `shown` finds what must not be there. */
export async function expectCursorsRefused(client: DeskClient, paths: readonly string[], shown: (body: string) => boolean): Promise<void> {
  for (const path of paths) {
    const answer = await client.get(path);
    expect(answer.status, path).toBe(400);
    expect(answer.body, path).toContain('The page link was changed or belongs to another page');
    expect(shown(answer.body), path).toBe(false);
  }
}
