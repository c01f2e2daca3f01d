import { renderPage, type PageContent } from './pageLayout';

/** A rendered page: HTTP status, extra headers, HTML. */
export interface RenderedPage {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly html: string;
}

/**
 * Renders one view of a link page: its status from `statuses`, `content` as a whole document, and
 * `Allow` on `method-not-allowed` (besides any `headers` of the view's own).
 */
export function renderView<K extends string>(
  kind: K,
  statuses: Readonly<Record<K, number>>,
  content: PageContent,
  headers: Record<string, string> = {},
): RenderedPage {
  return { status: statuses[kind], headers: kind === 'method-not-allowed' ? { ...headers, allow: 'GET, HEAD, POST' } : headers, html: renderPage(content) };
}
