import { accountFor, viewerOf, type DeskScopeDeps, type DeskViewer } from '../../services/desk/deskViewer';
import { accountPage, type AccountPage, type AccountPagePositions } from '../../services/desk/accountPage';
import { decodeCursor, encodeCursor, type CursorSection } from './deskCursor';
import type { AccountOlderLinks } from './accountView';
import { DESK_WINDOWS, readAccountSeries, type DeskWindow } from '../../services/desk/accountSeries';
import { deskOverview } from '../../services/desk/deskOverview';
import type { DeskStores } from '../../services/desk/deskStores';
import type { TrackedAccount } from '../../domain/account';
import { deskChart } from '../../domain/deskChart';
import { endEverySession, endSession, liveSession } from '../../services/desk/deskSessions';
import { checkSameOrigin, originHeadersOf } from '../sameOrigin';
import type { WebRequest } from '../webRequest';
import type { DeskAssets } from './deskAssets';
import type { DeskChrome } from './deskLayout';
import { accountPath, DESK_PATHS, deskUrl, signInReturn } from './deskPaths';
import type { DeskView } from './deskView';
import { clearCookieHeader, isSessionSecret, sessionCookieFor, sessionKeyOf, type SessionCookie } from './sessionCookie';
import { signInPage, type SignInPageDeps } from './signInPage';
import { overviewQueryOf } from './overviewSort';
import { PASSKEY_API, passkeyDepsOf, passkeyRegistration, passkeySignIn, type PasskeyRouteDeps } from './passkeyRoutes';
import { passkeysOf } from '../../services/desk/passkeys';
import { deskAlerts, liftOwnSnooze } from '../../services/desk/deskAlerts';
import { deskChannels } from '../../services/desk/deskChannels';
import { deskChannelTest, type DeskChannelTestDeps } from '../../services/desk/deskChannelTest';
import type { DeskChannelTestRepository } from '../../store/deskChannelTestRepository';
import { deskRevokeLink, type DeskRevokeLinkDeps } from '../../services/desk/deskRevokeLink';
import type { AccountHistoryRepository } from '../../store/accountHistoryRepository';
import type { AlertStateRepository } from '../../store/alertStateRepository';
import type { ChannelsRepository } from '../../store/channelsRepository';

/** What the desk endpoint needs. */
export interface DeskPageDeps extends SignInPageDeps, DeskScopeDeps {
  /** Passkey challenges and the registered passkeys (items of the `desk` table). */
  readonly passkeyStore: PasskeyRouteDeps['passkeyStore'];
  readonly assets: DeskAssets;
  /** The stores the account figures are read from (read only). */
  readonly data: DeskStores;
  /**
   * The clock the figures are read at (today, the drawdown window, "as of"): the service's clock,
   * which locally may run faster than real time (`npm start -- --fast`); default `now`, the clock of
   * links, sessions and rate limits, which is always real time.
   */
  readonly figuresNow?: () => number;
  /** The one write the desk makes outside its own table: lifting the viewer's own snooze of an account. */
  readonly snoozes: Pick<AlertStateRepository, 'liftRecipientSnoozes'>;
  /** Where a lift is recorded: the account's alert history (`alert#` items). */
  readonly history: Pick<AccountHistoryRepository, 'recordAlerts'>;
  /** The chat channels: listed on the operators' page, and the one a Test names read. */
  readonly channels: Pick<ChannelsRepository, 'list'> & DeskChannelTestDeps['channels'];
  /** How the Test button has a channel tested (in AWS the private `channel-test` function: the desk reads no channel secret). */
  readonly channelTester: DeskChannelTestDeps['tester'];
  /** The Test button's audit: who tested which channel when, and the outcome shown after the redirect. */
  readonly channelTests: Pick<DeskChannelTestRepository, 'record' | 'get' | 'recent'>;
  /** The sign-in counters, and the Test button's one turn a minute. */
  readonly rates: SignInPageDeps['rates'] & DeskChannelTestDeps['rates'];
  /** Mints the revoke and revoke-all links of the keys section's buttons (the links an alert email carries). */
  readonly revokeLinks: DeskRevokeLinkDeps['revokeLinks'];
}

/** How many points the chart API sends at most: a few thousand, every extreme and flow kept. */
export const API_CHART_POINTS = 4_000;

const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A signed-in request: who, under which session key, and the anti-CSRF value of its forms. */
interface Signed {
  readonly viewer: DeskViewer;
  readonly key: string;
  readonly chrome: DeskChrome;
}

/**
 * The `/desk` endpoint: static assets, the sign-in pages, and, for a live session, the pages and
 * API of the accounts the viewer receives (every other account answers 404, as a missing one).
 * A page asked for without a session redirects to the sign-in page; an API call answers 401.
 */
export async function deskPage(deps: DeskPageDeps, request: WebRequest): Promise<DeskView> {
  const path = request.path.replace(/\/+$/, '') || '/';
  if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'POST') return { kind: 'method-not-allowed' };
  if (path.startsWith(`${DESK_PATHS.assets}/`)) {
    const asset = deps.assets.get(path.slice(DESK_PATHS.assets.length + 1));
    return asset && request.method !== 'POST' ? { kind: 'asset', asset } : { kind: 'not-found', chrome: null };
  }
  const cookie = sessionCookieFor(deps.publicBaseUrl);
  if (!cookie) return { kind: 'needs-https' };
  if (path === DESK_PATHS.signIn) return signInPage(deps, request, cookie, async () => (await liveSessionOf(deps, request))?.session.email ?? null);
  if (path === PASSKEY_API.signInOptions || path === PASSKEY_API.signInVerify) return passkeySignIn(deps, request, path, cookie);

  const signed = await signedIn(deps, request);
  const api = path.startsWith(`${DESK_PATHS.api}/`);
  if (!signed) {
    if (api) return { kind: 'json', status: 401, body: { error: 'not signed in' } };
    if (path === DESK_PATHS.signOut) return signedOutRedirect(deps, cookie, 'signed-out');
    if (request.method === 'POST') return { kind: 'forbidden', reason: 'You are not signed in' };
    const next = signInReturn(`${path}${request.query.size > 0 ? `?${request.query.toString()}` : ''}`);
    return { kind: 'redirect', location: deskUrl(deps.publicBaseUrl, DESK_PATHS.signIn, next ? { next } : undefined) };
  }
  if (request.method === 'POST') {
    const origin = checkSameOrigin(originHeadersOf(request), deps.publicBaseUrl);
    if (origin.kind === 'cross-origin') return { kind: 'forbidden', reason: `The form must be sent from this site (${origin.reason})` };
    const csrf = request.form.kind === 'form' ? request.form.fields.get('csrf') : (request.header('x-csrf-token') ?? null);
    if (!deps.csrf.verify('desk', signed.key, csrf)) return { kind: 'forbidden', reason: 'The form is missing or altered' };
  }

  if (path === DESK_PATHS.signOut && request.method === 'POST') {
    const everywhere = request.form.kind === 'form' && request.form.fields.get('everywhere') === '1';
    if (everywhere) await endEverySession(deps.stores, signed.viewer.email, deps.now());
    await endSession(deps.stores, signed.key);
    deps.log.info('desk session ended', { everywhere });
    return signedOutRedirect(deps, cookie, everywhere ? 'signed-out-everywhere' : 'signed-out');
  }
  if (path === PASSKEY_API.registerOptions || path === PASSKEY_API.registerVerify) {
    return request.method === 'POST'
      ? passkeyRegistration(deps, request, path, signed.viewer.email)
      : { kind: 'json', status: 405, body: { error: 'POST only' } };
  }
  if (path === DESK_PATHS.passkeys && request.method !== 'POST') {
    const passkeys = passkeyDepsOf(deps);
    const script = deps.assets.fileOf('passkeys.js');
    return {
      kind: 'passkeys',
      chrome: signed.chrome,
      passkeys: await passkeysOf({ passkeys: deps.passkeyStore.passkeys, recipients: deps.stores.recipients }, signed.viewer.email),
      offered: passkeys !== null,
      scripts: passkeys && script ? [deskUrl(deps.publicBaseUrl, `${DESK_PATHS.assets}/${script}`)] : [],
    };
  }
  if (path === `${DESK_PATHS.passkeys}/remove` && request.method === 'POST') {
    const credential = request.form.kind === 'form' ? request.form.fields.get('credential') : null;
    if (credential) await deps.passkeyStore.passkeys.remove(signed.viewer.email, credential);
    return { kind: 'redirect', location: deskUrl(deps.publicBaseUrl, DESK_PATHS.passkeys) };
  }
  if (path === DESK_PATHS.overview && request.method !== 'POST') {
    const now = (deps.figuresNow ?? deps.now)();
    const overview = await deskOverview({ ...deps, stores: deps.data }, signed.viewer, now);
    if (overview.rows.length === 0 && !signed.viewer.operator) {
      await endSession(deps.stores, signed.key);
      return signedOutRedirect(deps, cookie, 'no-access');
    }
    return { kind: 'overview', chrome: signed.chrome, overview, query: overviewQueryOf(request.query), now };
  }
  if (path === DESK_PATHS.alerts && request.method !== 'POST') {
    const now = (deps.figuresNow ?? deps.now)();
    const alerts = await deskAlerts({ ...deps, stores: deps.data }, signed.viewer, now);
    return { kind: 'alerts', chrome: signed.chrome, alerts, now, notice: request.query.get('notice') };
  }
  if (path === DESK_PATHS.liftSnooze && request.method === 'POST') {
    const address = request.form.kind === 'form' ? (request.form.fields.get('account') ?? '') : '';
    const lifted = await liftOwnSnooze(deps, signed.viewer, address, deps.now());
    if (lifted.kind === 'not-found') return { kind: 'not-found', chrome: signed.chrome };
    deps.log.info('desk snooze lifted', { outcome: lifted.kind });
    return { kind: 'redirect', location: deskUrl(deps.publicBaseUrl, DESK_PATHS.alerts, { notice: lifted.kind }) };
  }
  if (path === DESK_PATHS.channels && request.method !== 'POST') {
    if (!signed.viewer.operator) return { kind: 'not-found', chrome: signed.chrome };
    const testId = request.query.get('test');
    const [channels, recent, test] = await Promise.all([
      deskChannels(deps),
      deps.channelTests.recent(),
      testId !== null && UUID.test(testId) ? deps.channelTests.get(testId) : null,
    ]);
    return { kind: 'channels', chrome: signed.chrome, channels, now: deps.now(), test: test?.by === signed.viewer.email ? test : null, recent };
  }
  if (path === DESK_PATHS.testChannel && request.method === 'POST') {
    const name = request.form.kind === 'form' ? (request.form.fields.get('channel') ?? '') : '';
    const tested = await deskChannelTest({ ...deps, tester: deps.channelTester }, signed.viewer, name, deps.now);
    if (tested.kind === 'not-found') return { kind: 'not-found', chrome: signed.chrome };
    if (tested.kind === 'rate-limited')
      return { kind: 'rate-limited', chrome: signed.chrome, reason: `This channel was tested less than a minute ago: try again in ${tested.retryInS} s` };
    deps.log.info('desk channel tested', { channel: tested.record.channel, outcome: tested.record.outcome });
    return { kind: 'redirect', location: deskUrl(deps.publicBaseUrl, DESK_PATHS.channels, { test: tested.id }) };
  }
  const revokeRoute = /^\/desk\/accounts\/([^/]+)\/(revoke|revoke-all)$/.exec(path);
  if (revokeRoute && request.method === 'POST') {
    const delegate = request.form.kind === 'form' ? (request.form.fields.get('delegate') ?? '') : '';
    const ask = revokeRoute[2] === 'revoke-all' ? ({ kind: 'revoke-all' } as const) : ({ kind: 'revoke', delegate } as const);
    const minted = await deskRevokeLink(deps, signed.viewer, decodeURIComponent(revokeRoute[1] ?? ''), ask, deps.now());
    if (minted.kind === 'not-found') return { kind: 'not-found', chrome: signed.chrome };
    if (minted.kind === 'bad-request') return { kind: 'bad-request', reason: minted.reason };
    return { kind: 'redirect', location: minted.url };
  }
  const accountRoute = /^\/desk\/(api\/)?accounts\/([^/]+)(\/[a-z-]+)?$/.exec(path);
  if (accountRoute) {
    const asked = decodeURIComponent(accountRoute[2] ?? '');
    const account = await accountFor(deps, signed.viewer, asked);
    const notFound: DeskView = api ? { kind: 'json', status: 404, body: { error: 'not found' } } : { kind: 'not-found', chrome: signed.chrome };
    if (!account || request.method === 'POST') return notFound;
    // An address in another case (lower case, as the CLI takes it) opens the page at its checksummed path.
    if (!api && asked !== account.address)
      return { kind: 'redirect', location: `${deskUrl(deps.publicBaseUrl, accountPath(account.address))}${queryOf(request.query)}` };
    const window = windowOf(request.query.get('window'));
    if (api) return accountRoute[3] === '/series' ? seriesJson(deps, account, window) : notFound;
    if (accountRoute[3] !== undefined) return notFound;
    const day = request.query.get('day');
    const cursors = readCursors(deps, account.address, request.query);
    if (cursors.kind === 'invalid') return { kind: 'bad-request', reason: 'The page link was changed or belongs to another page: open the account again' };
    const now = (deps.figuresNow ?? deps.now)();
    const page = await accountPage(deps.data, account, window, day !== null && LOCAL_DATE.test(day) ? day : null, now, cursors.positions);
    const chart = deps.assets.fileOf('chart.js');
    const css = deps.assets.fileOf('chart.css');
    return {
      kind: 'account',
      chrome: signed.chrome,
      page,
      now,
      scripts: chart ? [deskUrl(deps.publicBaseUrl, `${DESK_PATHS.assets}/${chart}`)] : [],
      stylesheets: css ? [deskUrl(deps.publicBaseUrl, `${DESK_PATHS.assets}/${css}`)] : [],
      revokeAll: deps.revokeLinks.revokeAllServed,
      older: olderLinks(deps, page),
    };
  }
  return api ? { kind: 'json', status: 404, body: { error: 'not found' } } : { kind: 'not-found', chrome: signed.chrome };
}

/** The positions the account page's "Older" cursors carry (each checked against this account and its section). */
function readCursors(deps: DeskPageDeps, address: string, query: URLSearchParams): { kind: 'read'; positions: AccountPagePositions } | { kind: 'invalid' } {
  const read = (section: CursorSection) => decodeCursor(deps.csrf, section, address, query.get(section));
  const [alerts, deliveries, decisions] = [read('alerts'), read('deliveries'), read('decisions')];
  if (alerts.kind === 'invalid' || deliveries.kind === 'invalid' || decisions.kind === 'invalid') return { kind: 'invalid' };
  const position = (cursor: typeof alerts) => (cursor.kind === 'position' ? cursor.position : null);
  return { kind: 'read', positions: { alerts: position(alerts), deliveries: position(deliveries), decisions: position(decisions) } };
}

/** The links to each paged section's next (older) page, in the same window. */
function olderLinks(deps: DeskPageDeps, page: AccountPage): AccountOlderLinks {
  const { address } = page.account;
  const href = (section: CursorSection, next: string | null) =>
    next === null
      ? null
      : deskUrl(deps.publicBaseUrl, accountPath(address), { window: page.window, [section]: encodeCursor(deps.csrf, section, address, next) });
  return {
    alerts: href('alerts', page.alertHistory.next),
    deliveries: href('deliveries', page.deliveries.next),
    decisions: href('decisions', page.protection.next),
  };
}

function queryOf(query: URLSearchParams): string {
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

function windowOf(value: string | null): DeskWindow {
  return (DESK_WINDOWS as readonly string[]).includes(value ?? '') ? (value as DeskWindow) : '30d';
}

/** The chart data of an account's window (`GET /desk/api/accounts/<address>/series?window=`): times in seconds, as the client draws them, and the account's zone, which it writes them in. */
async function seriesJson(deps: DeskPageDeps, account: TrackedAccount, window: DeskWindow): Promise<DeskView> {
  const series = await readAccountSeries(deps.data, account, window, (deps.figuresNow ?? deps.now)());
  const chart = deskChart(series.series, series.underwater, API_CHART_POINTS);
  return {
    kind: 'json',
    status: 200,
    body: {
      account: account.address,
      window,
      from: series.from,
      to: series.to,
      asOf: series.read.at(-1)?.timestamp ?? null,
      stored: chart.stored,
      t: chart.t.map((ms) => ms / 1000),
      equity: chart.equity,
      drawdown: chart.drawdown,
      flows: chart.flows.map((f) => ({ t: f.t / 1000, amount: f.amount })),
      levels: account.drawdownThresholds,
      killSwitch: account.killSwitch,
      timeZone: account.timezone,
    },
  };
}

/** The live session the request's cookie names, with its viewer; `null` without one. */
async function signedIn(deps: DeskPageDeps, request: WebRequest): Promise<Signed | null> {
  const live = await liveSessionOf(deps, request);
  if (!live) return null;
  const { key, session } = live;
  const viewer = await viewerOf(deps, session.email);
  return { viewer, key, chrome: { baseUrl: deps.publicBaseUrl, email: viewer.email, operator: viewer.operator, csrf: deps.csrf.issue('desk', key) } };
}

/** The live session the request's cookie names, with its key; `null` without one. */
async function liveSessionOf(deps: DeskPageDeps, request: WebRequest) {
  const cookie = sessionCookieFor(deps.publicBaseUrl);
  const secret = cookie ? request.cookie(cookie.name) : undefined;
  if (!isSessionSecret(secret)) return null;
  const key = sessionKeyOf(secret);
  const session = await liveSession(deps.stores, key, deps.now());
  return session ? { key, session } : null;
}

function signedOutRedirect(deps: DeskPageDeps, cookie: SessionCookie, notice: string): DeskView {
  return { kind: 'redirect', location: deskUrl(deps.publicBaseUrl, DESK_PATHS.signIn, { notice }), setCookie: clearCookieHeader(cookie) };
}
