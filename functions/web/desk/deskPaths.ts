import { deskReturnPath } from '../../domain/deskReturnPath';

/** The desk page's paths under `PUBLIC_BASE_URL`. */
export const DESK_PATHS = {
  overview: '/desk',
  signIn: '/desk/sign-in',
  signOut: '/desk/sign-out',
  alerts: '/desk/alerts',
  liftSnooze: '/desk/alerts/lift',
  channels: '/desk/channels',
  testChannel: '/desk/channels/test',
  revoke: '/desk/revoke',
  passkeys: '/desk/passkeys',
  assets: '/desk/assets',
  api: '/desk/api',
} as const;

/** The path of an account's page. */
export function accountPath(address: string): string {
  return `${DESK_PATHS.overview}/accounts/${address}`;
}

/** The absolute URL of a desk path under `baseUrl`, with `query` when given. */
export function deskUrl(baseUrl: string, path: string, query?: Readonly<Record<string, string>>): string {
  const search = query && Object.keys(query).length > 0 ? `?${new URLSearchParams(query).toString()}` : '';
  return `${baseUrl.replace(/\/+$/, '')}${path}${search}`;
}

/** Paths a sign-in never returns to: the sign-in and sign-out pages, the assets and the API. */
const NOT_PAGES: readonly string[] = [DESK_PATHS.signIn, DESK_PATHS.signOut, DESK_PATHS.assets, DESK_PATHS.api];

/**
 * The desk page (path and query) a sign-in returns to, from what the sign-in was asked with: a
 * page of the desk other than the overview, or null (the overview).
 */
export function signInReturn(value: string | null | undefined): string | null {
  const path = deskReturnPath(value);
  const page = path?.split('?')[0];
  if (path === null || page === undefined || page === DESK_PATHS.overview) return null;
  return NOT_PAGES.some((p) => page === p || page.startsWith(`${p}/`)) ? null : path;
}
