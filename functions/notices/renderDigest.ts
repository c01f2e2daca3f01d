import type { EmailRenderer, RenderedEmail } from '../mail/render/render';
import type { DigestView } from '../mail/render/views';
import { REPORT_HTML_BUDGET_BYTES } from './renderReport';

const htmlBytes = (rendered: RenderedEmail): number => Buffer.byteLength(rendered.html, 'utf8');

/** The largest `n` in `[0, max]` for which `fits(n)`, given that `fits` is monotone (true up to some n). */
function largestFitting(max: number, fits: (n: number) => boolean): number {
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Renders a digest whose HTML stays within `budget` (Gmail clips past about 102 KB, hiding the
 * footer with the unsubscribe link). When the whole digest does not fit, the HTML keeps the table
 * of every account and the sections of as many accounts as fit (worst first), and says how many
 * more there are; if even the table alone does not fit, it keeps as many rows as fit. The
 * plain-text part always has every account, with every revoke link. Returns how many rows the
 * HTML shows (their trend images are the ones to attach).
 */
export function renderDigest(
  renderer: EmailRenderer,
  view: DigestView,
  timeZone: string,
  budget = REPORT_HTML_BUDGET_BYTES,
): { rendered: RenderedEmail; rowsShown: number } {
  const full = renderer.render('digest', view, { timeZone });
  if (htmlBytes(full) <= budget) return { rendered: full, rowsShown: view.rows.length };
  const cache = new Map<string, RenderedEmail>();
  const withFirst = (rows: number, sections: number): RenderedEmail => {
    const key = `${rows}/${sections}`;
    let out = cache.get(key);
    if (!out) {
      out = renderer.render(
        'digest',
        {
          ...view,
          rows: view.rows.slice(0, rows),
          moreRows: view.rows.length - rows,
          sections: view.sections.slice(0, sections),
          moreSections: view.sections.length - sections,
        },
        { timeZone },
      );
      cache.set(key, out);
    }
    return out;
  };
  const rows = view.rows.length;
  if (htmlBytes(withFirst(rows, 0)) <= budget) {
    const sections = largestFitting(view.sections.length, (n) => htmlBytes(withFirst(rows, n)) <= budget);
    return { rendered: { ...full, html: withFirst(rows, sections).html }, rowsShown: rows };
  }
  const shown = largestFitting(rows, (n) => htmlBytes(withFirst(n, 0)) <= budget);
  return { rendered: { ...full, html: withFirst(shown, 0).html }, rowsShown: shown };
}
