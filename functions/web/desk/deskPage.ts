import { accountFor, accountsOf, viewerOf, type DeskScopeDeps, type DeskViewer } from '../../services/desk/deskViewer';
import { endEverySession, endSession, liveSession } from '../../services/desk/deskSessions';
import { checkSameOrigin, originHeadersOf } from '../sameOrigin';
import type { WebRequest } from '../webRequest';
import type { DeskAssets } from './deskAssets';
import type { DeskChrome } from './deskLayout';
import { DESK_PATHS, deskUrl } from './deskPaths';
import type { DeskView } from './deskView';
import { clearCookieHeader, isSessionSecret, sessionCookieFor, sessionKeyOf, type SessionCookie } from './sessionCookie';
import { signInPage, type SignInPageDeps } from './signInPage';

/** What the desk endpoint needs. */
export interface DeskPageDeps extends SignInPageDeps, DeskScopeDeps {
  readonly assets: DeskAssets;
}

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
  if (path === DESK_PATHS.signIn) return signInPage(deps, request, cookie);

  const signed = await signedIn(deps, request);
  const api = path.startsWith(`${DESK_PATHS.api}/`);
  if (!signed) {
    if (api) return { kind: 'json', status: 401, body: { error: 'not signed in' } };
    if (path === DESK_PATHS.signOut) return signedOutRedirect(deps, cookie, 'signed-out');
    if (request.method === 'POST') return { kind: 'forbidden', reason: 'You are not signed in' };
    return { kind: 'redirect', location: deskUrl(deps.publicBaseUrl, DESK_PATHS.signIn) };
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
  if (path === DESK_PATHS.overview && request.method !== 'POST') {
    const accounts = await accountsOf(deps, signed.viewer);
    if (accounts.length === 0 && !signed.viewer.operator) {
      await endSession(deps.stores, signed.key);
      return signedOutRedirect(deps, cookie, 'no-access');
    }
    return { kind: 'overview', chrome: signed.chrome, accounts: accounts.map((a) => ({ address: a.address, label: a.label })) };
  }
  const accountRoute = /^\/desk\/(?:api\/)?accounts\/([^/]+)(\/.*)?$/.exec(path);
  if (accountRoute) {
    const account = await accountFor(deps, signed.viewer, decodeURIComponent(accountRoute[1] ?? ''));
    if (!account) return api ? { kind: 'json', status: 404, body: { error: 'not found' } } : { kind: 'not-found', chrome: signed.chrome };
  }
  return api ? { kind: 'json', status: 404, body: { error: 'not found' } } : { kind: 'not-found', chrome: signed.chrome };
}

/** The live session the request's cookie names, with its viewer; `null` without one. */
async function signedIn(deps: DeskPageDeps, request: WebRequest): Promise<Signed | null> {
  const cookie = sessionCookieFor(deps.publicBaseUrl);
  const secret = cookie ? request.cookie(cookie.name) : undefined;
  if (!isSessionSecret(secret)) return null;
  const key = sessionKeyOf(secret);
  const session = await liveSession(deps.stores, key, deps.now());
  if (!session) return null;
  const viewer = await viewerOf(deps, session.email);
  return { viewer, key, chrome: { baseUrl: deps.publicBaseUrl, email: viewer.email, operator: viewer.operator, csrf: deps.csrf.issue('desk', key) } };
}

function signedOutRedirect(deps: DeskPageDeps, cookie: SessionCookie, notice: string): DeskView {
  return { kind: 'redirect', location: deskUrl(deps.publicBaseUrl, DESK_PATHS.signIn, { notice }), setCookie: clearCookieHeader(cookie) };
}
