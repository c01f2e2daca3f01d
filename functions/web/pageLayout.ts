import { html, trustedHtml, type SafeHtml } from './html';
import { PAGE_STYLES } from './pageStyles';

/** How a page's status badge is coloured. */
export type PageTone = 'success' | 'warning' | 'danger' | 'neutral';

/** The content of one page; everything in it is escaped or already `SafeHtml`. */
export interface PageContent {
  /** Document title and heading. */
  readonly title: string;
  /** Short status word shown above the heading, e.g. "Revoked". */
  readonly badge: string;
  readonly tone: PageTone;
  readonly body: SafeHtml;
  /** Reload `url` after `seconds` (a page showing work in progress; no script needed). */
  readonly refresh?: { readonly seconds: number; readonly url: string };
}

/** A page of one paragraph (`text` is escaped). */
export function simplePage(title: string, badge: string, tone: PageTone, text: string): PageContent {
  return { title, badge, tone, body: html`<p>${text}</p>` };
}

/** A complete HTML document around `content`: no script, no external resource, one inline stylesheet. */
export function renderPage(content: PageContent): string {
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
${
  content.refresh
    ? html`<meta http-equiv="refresh" content="${content.refresh.seconds}; url=${content.refresh.url}">
`
    : ''
}<title>${content.title} · Portfolio Sentinel</title>
<style>${trustedHtml(PAGE_STYLES)}</style>
</head>
<body>
<main>
<p class="brand">Portfolio Sentinel</p>
<section class="card tone-${content.tone}">
<span class="badge">${content.badge}</span>
<h1>${content.title}</h1>
${content.body}
</section>
<footer>This page uses no scripts and no cookies.</footer>
</main>
</body>
</html>
`;
  return page.value;
}
