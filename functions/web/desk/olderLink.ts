import { html, type SafeHtml } from '../html';

/** A paged section's "Older" link to its next page (`what` names the section for screen readers); nothing when `href` is `null`. */
export function olderLink(href: string | null, what: string): SafeHtml {
  return href === null ? html`` : html`<p><a href="${href}" rel="next">Older<span class="visually-hidden"> ${what}</span></a></p>`;
}
