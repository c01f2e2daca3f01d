import { accountName } from '../../mail/render/format';
import { html } from '../html';
import type { RenderedPage } from '../renderedPage';
import { renderDeskDocument, type DeskChrome } from './deskLayout';
import { accountPath, deskUrl } from './deskPaths';

/** The pages of a signed-in viewer. */
export type SignedInView = { kind: 'overview'; chrome: DeskChrome; accounts: readonly { address: string; label: string | null }[] };

/** Renders a signed-in page with `headers` (the desk's). */
export function renderSignedInView(view: SignedInView, baseUrl: string, headers: Record<string, string>): RenderedPage {
  return {
    status: 200,
    headers,
    html: renderDeskDocument({
      title: 'Overview',
      chrome: view.chrome,
      section: 'overview',
      body: html`<h1>Overview</h1><ul>${view.accounts.map((a) => html`<li><a href="${deskUrl(baseUrl, accountPath(a.address))}">${accountName(a)}</a></li>`)}</ul>`,
    }),
  };
}
