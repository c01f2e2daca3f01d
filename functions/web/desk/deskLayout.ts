import { html, trustedHtml, type SafeHtml } from '../html';
import { DESK_PATHS, deskUrl } from './deskPaths';
import { DESK_STYLES } from './deskStyles';

/** The navigation entries of a signed-in page. */
export type DeskSection = 'overview' | 'alerts' | 'channels' | 'passkeys' | 'account';

/** Who is signed in, as every signed-in page shows it (with the sign-out form's anti-CSRF value). */
export interface DeskChrome {
  readonly baseUrl: string;
  readonly email: string;
  readonly operator: boolean;
  readonly csrf: string;
}

/** One desk document: a signed-in page (with `chrome`) or a sign-in page (without). */
export interface DeskDocument {
  readonly title: string;
  readonly body: SafeHtml;
  readonly chrome?: DeskChrome;
  readonly section?: DeskSection;
  /**
   * Scripts (same-origin asset URLs, loaded `defer`) and stylesheets of the page's client. The
   * stylesheets style only what the scripts draw, so they are linked at the end of the body: the
   * page paints without waiting for them (a stylesheet in the head blocks the first paint), and
   * the deferred scripts still run after they loaded.
   */
  readonly scripts?: readonly string[];
  readonly stylesheets?: readonly string[];
}

function navLink(chrome: DeskChrome, path: string, label: string, current: boolean): SafeHtml {
  return html`<a href="${deskUrl(chrome.baseUrl, path)}"${current ? trustedHtml(' aria-current="page"') : ''}>${label}</a>`;
}

function top(chrome: DeskChrome, section: DeskSection | undefined): SafeHtml {
  return html`<header class="top">
<a class="brand" href="${deskUrl(chrome.baseUrl, DESK_PATHS.overview)}">Portfolio Sentinel</a>
<nav aria-label="Desk">
${navLink(chrome, DESK_PATHS.overview, 'Overview', section === 'overview')}
${navLink(chrome, DESK_PATHS.alerts, 'Alerts and snoozes', section === 'alerts')}
${chrome.operator ? navLink(chrome, DESK_PATHS.channels, 'Channels', section === 'channels') : ''}
${navLink(chrome, DESK_PATHS.passkeys, 'Passkeys', section === 'passkeys')}
</nav>
<div class="who"><span>${chrome.email}${chrome.operator ? ' (operator)' : ''}</span>
<form method="post" action="${deskUrl(chrome.baseUrl, DESK_PATHS.signOut)}"><input type="hidden" name="csrf" value="${chrome.csrf}"><button type="submit">Sign out</button></form>
<form method="post" action="${deskUrl(chrome.baseUrl, DESK_PATHS.signOut)}"><input type="hidden" name="csrf" value="${chrome.csrf}"><input type="hidden" name="everywhere" value="1"><button type="submit">Sign out everywhere</button></form>
</div>
</header>`;
}

/** A complete desk document: one inline stylesheet (by hash), scripts only from asset files. */
export function renderDeskDocument(doc: DeskDocument): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${doc.title} · Portfolio Sentinel</title>
<style>${trustedHtml(DESK_STYLES)}</style>
${(doc.scripts ?? []).map((src) => html`<script src="${src}" defer></script>\n`)}</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${doc.chrome ? top(doc.chrome, doc.section) : ''}
<main id="main"${doc.chrome ? '' : trustedHtml(' class="narrow"')}>
${doc.body}
<footer>Every figure is read from stored data, as of the account's last poll; nothing here asks the chain. ${doc.chrome ? '' : 'This page sets a cookie only once you sign in.'}</footer>
</main>
${(doc.stylesheets ?? []).map((href) => html`<link rel="stylesheet" href="${href}">\n`)}</body>
</html>
`.value;
}
