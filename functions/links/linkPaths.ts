import type { LinkPurpose } from '../domain/linkClaims';

/** The path of each action under `PUBLIC_BASE_URL`. */
export const LINK_PATHS: Readonly<Record<LinkPurpose, string>> = {
  revoke: '/revoke',
  'revoke-all': '/revoke-all',
  unsubscribe: '/unsubscribe',
  snooze: '/snooze',
  preferences: '/preferences',
  // The confirmation opens the preferences page, which tells the two tokens apart by their keys.
  'security-off': '/preferences',
  // A chat's buttons open the same pages, which tell a channel's token from a recipient's by its keys.
  'channel-snooze': '/snooze',
  'channel-preferences': '/preferences',
  // The desk page's sign-in: its GET shows the button, its POST consumes the link.
  'desk-sign-in': '/desk/sign-in',
};

/** The absolute URL of a purpose's page under `baseUrl` (what its forms post to). */
export function actionUrl(baseUrl: string, purpose: LinkPurpose): string {
  return `${baseUrl.replace(/\/+$/, '')}${LINK_PATHS[purpose]}`;
}

/** The link of an already signed token under `baseUrl`. */
export function linkUrl(baseUrl: string, purpose: LinkPurpose, token: string): string {
  return `${actionUrl(baseUrl, purpose)}?token=${encodeURIComponent(token)}`;
}
