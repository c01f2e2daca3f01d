/** Markup that is already safe to embed: produced by {@link html} or {@link trustedHtml}. */
export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c] ?? c);
}

type Interpolated = SafeHtml | string | number | null | undefined | readonly Interpolated[];

function render(value: Interpolated): string {
  if (value === null || value === undefined) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map((v: Interpolated) => render(v)).join('');
  return escapeHtml(String(value));
}

/**
 * Template tag for page markup: every interpolated string or number is escaped; `SafeHtml`
 * (from nested `html` templates) is kept; arrays are joined; `null`/`undefined` vanish.
 * The only way to build markup, so a hostile label or delegate name is always shown as text.
 */
export function html(strings: TemplateStringsArray, ...values: Interpolated[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Marks a constant string written in this code base as markup. Never pass data through it. */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
