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
