import { accountName } from '../../mail/render/format';
import type { AccountPage } from '../../services/desk/accountPage';
import type { DeskOverview } from '../../services/desk/deskOverview';
import type { RenderedPage } from '../renderedPage';
import { accountBody, type AccountOlderLinks } from './accountView';
import { renderDeskDocument, type DeskChrome } from './deskLayout';
import type { OverviewQuery } from './overviewSort';
import { overviewBody } from './overviewView';
import { passkeysBody } from './passkeysView';
import type { Passkey } from '../../store/passkeyRepository';
import type { DeskAlerts } from '../../services/desk/deskAlerts';
import type { ChannelHealth } from '../../services/desk/deskChannels';
import { alertsBody } from './alertsView';
import { channelsBody } from './channelsView';
import type { ChannelTestRecord } from '../../store/deskChannelTestRepository';

/** The pages of a signed-in viewer. */
export type SignedInView =
  | { kind: 'overview'; chrome: DeskChrome; overview: DeskOverview; query: OverviewQuery; now: number }
  | {
      kind: 'account';
      chrome: DeskChrome;
      page: AccountPage;
      now: number;
      scripts: readonly string[];
      stylesheets: readonly string[];
      /** Whether the endpoint serves `/revoke-all` (the keys section then has a Revoke all button). */
      revokeAll: boolean;
      older: AccountOlderLinks;
    }
  | { kind: 'passkeys'; chrome: DeskChrome; passkeys: readonly Passkey[]; offered: boolean; scripts: readonly string[] }
  | { kind: 'alerts'; chrome: DeskChrome; alerts: DeskAlerts; now: number; notice: string | null }
  | {
      kind: 'channels';
      chrome: DeskChrome;
      channels: readonly ChannelHealth[];
      now: number;
      /** The viewer's own Test just pressed (`?test=` after the redirect), or null. */
      test: ChannelTestRecord | null;
      /** The latest tests by anyone, newest first (the audit). */
      recent: readonly ChannelTestRecord[];
    };

/** Renders a signed-in page with `headers` (the desk's). */
export function renderSignedInView(view: SignedInView, baseUrl: string, headers: Record<string, string>): RenderedPage {
  switch (view.kind) {
    case 'overview':
      return {
        status: 200,
        headers,
        html: renderDeskDocument({
          title: 'Overview',
          chrome: view.chrome,
          section: 'overview',
          body: overviewBody(baseUrl, view.overview, view.query, view.now),
        }),
      };
    case 'account':
      return {
        status: 200,
        headers,
        html: renderDeskDocument({
          title: accountName(view.page.account),
          chrome: view.chrome,
          section: 'account',
          scripts: view.scripts,
          stylesheets: view.stylesheets,
          body: accountBody(view.page, {
            baseUrl,
            csrf: view.chrome.csrf,
            now: view.now,
            chartClient: view.scripts.length > 0,
            revokeAll: view.revokeAll,
            older: view.older,
          }),
        }),
      };
    case 'passkeys':
      return {
        status: 200,
        headers,
        html: renderDeskDocument({
          title: 'Passkeys',
          chrome: view.chrome,
          section: 'passkeys',
          scripts: view.scripts,
          body: passkeysBody(baseUrl, view.chrome.csrf, view.passkeys, view.offered),
        }),
      };
    case 'alerts':
      return {
        status: 200,
        headers,
        html: renderDeskDocument({
          title: 'Alerts and snoozes',
          chrome: view.chrome,
          section: 'alerts',
          body: alertsBody(baseUrl, view.chrome.csrf, view.alerts, view.now, view.notice),
        }),
      };
    case 'channels':
      return {
        status: 200,
        headers,
        html: renderDeskDocument({
          title: 'Channels',
          chrome: view.chrome,
          section: 'channels',
          body: channelsBody(view.channels, view.now, { baseUrl, csrf: view.chrome.csrf, test: view.test, recent: view.recent }),
        }),
      };
  }
}
