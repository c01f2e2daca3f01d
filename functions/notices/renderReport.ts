import type { EmailRenderer, RenderedEmail } from '../mail/render/render';
import type { DailyReportView } from '../mail/render/views';

/**
 * Largest HTML part a report may have, in bytes of UTF-8: Gmail clips a message whose HTML passes
 * about 102 KB, hiding whatever follows (the footer with the unsubscribe link). Kept below it
 * with room to spare.
 */
export const REPORT_HTML_BUDGET_BYTES = 96 * 1024;

const htmlBytes = (rendered: RenderedEmail): number => Buffer.byteLength(rendered.html, 'utf8');

/**
 * Renders a report whose HTML stays within `budget`: when the whole report does not fit, the HTML
 * lists as many delegates (soonest expiry first) as fit and says how many more there are; the
 * plain-text part always lists them all, with their revoke links.
 */
export function renderReport(renderer: EmailRenderer, view: DailyReportView, timeZone: string, budget = REPORT_HTML_BUDGET_BYTES): RenderedEmail {
  const full = renderer.render('daily-report', view, { timeZone });
  if (htmlBytes(full) <= budget) return full;
  const total = view.delegates.length;
  const withFirst = (n: number) => renderer.render('daily-report', { ...view, delegates: view.delegates.slice(0, n), moreDelegates: total - n }, { timeZone });
  // Estimate from the size of an empty list and of the full one, then step down until it fits.
  const base = htmlBytes(withFirst(0));
  const perDelegate = total > 0 ? (htmlBytes(full) - base) / total : 0;
  let keep = perDelegate > 0 ? Math.max(0, Math.min(total - 1, Math.floor((budget - base) / perDelegate))) : 0;
  let html = withFirst(keep);
  while (keep > 0 && htmlBytes(html) > budget) html = withFirst(--keep);
  return { ...full, html: html.html };
}
