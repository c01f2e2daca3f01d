import { html, trustedHtml, type SafeHtml } from '../html';

/*
 * Charts drawn on the server as inline SVG: what a page shows with scripts off (and the overview's
 * small bars and sparklines always). Presentation attributes only (no `style`), so the desk's CSP
 * needs nothing for them.
 */

const fixed = (n: number) => (Math.round(n * 10) / 10).toString();

/** A small line of `values` (oldest first), scaled to its own range. */
export function sparkline(values: readonly number[], label: string, width = 120, height = 26): SafeHtml {
  if (values.length < 2) return html`<span class="note">—</span>`;
  const min = Math.min(...values);
  const max = Math.max(...values);
  const range = max - min || 1;
  const d = values
    .map((v, i) => `${i === 0 ? 'M' : 'L'}${fixed((i / (values.length - 1)) * (width - 2) + 1)},${fixed(height - 2 - ((v - min) / range) * (height - 4))}`)
    .join('');
  const up = values[values.length - 1]! >= values[0]!;
  return html`<svg class="spark" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}"><path d="${d}" fill="none" stroke="${up ? '#067647' : '#b42318'}" stroke-width="1.5"/></svg>`;
}

/**
 * The drawdown now against the account's levels: a bar filled to `pct`, a tick at each level and
 * a red tick at the kill switch, on a scale reaching a quarter past the deepest of them.
 */
export function drawdownBar(pct: number | null, levels: readonly number[], killSwitch: number | null, label: string): SafeHtml {
  const width = 90;
  const height = 10;
  const top = Math.max(10, ...levels, killSwitch ?? 0, pct ?? 0) * 1.25;
  const x = (v: number) => fixed((Math.min(v, top) / top) * width);
  const breached = pct !== null && levels.some((l) => pct >= l);
  return html`<svg width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}"><rect width="${width}" height="${height}" rx="5" fill="#eaecf0"/>${
    pct === null ? '' : html`<rect width="${x(pct)}" height="${height}" rx="5" fill="${breached ? '#d92d20' : '#f79009'}"/>`
  }${levels.map((l) => html`<rect x="${x(l)}" width="1.5" height="${height}" fill="#344054"/>`)}${
    killSwitch === null ? '' : html`<rect x="${x(killSwitch)}" width="2.5" height="${height}" fill="#b42318"/>`
  }</svg>`;
}

/** One line of a chart: its points (time, value), oldest first. */
export interface ChartLine {
  readonly t: readonly number[];
  readonly v: readonly (number | null)[];
}

/** A labelled horizontal line (a drawdown level, the kill switch). */
export interface ChartRule {
  readonly value: number;
  readonly label: string;
  readonly colour: string;
}

/** A labelled mark at one instant (a deposit, a withdrawal). */
export interface ChartMark {
  readonly t: number;
  readonly value: number;
  readonly label: string;
  readonly colour: string;
}

/**
 * A line chart of `line` on a time axis, with horizontal `rules` and point `marks`, filled down to
 * zero when `area` (the underwater drawdown). `title` and `description` name it for screen
 * readers; the numbers are also in the page's tables.
 */
export function lineChart(options: {
  readonly line: ChartLine;
  readonly title: string;
  readonly description: string;
  readonly format: (v: number) => string;
  readonly rules?: readonly ChartRule[];
  readonly marks?: readonly ChartMark[];
  readonly area?: boolean;
  readonly colour?: string;
  readonly width?: number;
  readonly height?: number;
}): SafeHtml {
  const width = options.width ?? 900;
  const height = options.height ?? 220;
  const pad = { left: 64, right: 12, top: 10, bottom: 22 };
  const { t, v } = options.line;
  const values = v.filter((x): x is number => x !== null);
  if (t.length === 0 || values.length === 0) return html`<p class="note">No stored points in this window.</p>`;
  const rules = options.rules ?? [];
  const lo = Math.min(...values, ...rules.map((r) => r.value), ...(options.area ? [0] : []));
  const hi = Math.max(...values, ...rules.map((r) => r.value), ...(options.area ? [0] : []));
  const span = hi - lo || Math.abs(hi) || 1;
  const t0 = t[0]!;
  const t1 = t[t.length - 1]!;
  const x = (ms: number) => pad.left + ((ms - t0) / (t1 - t0 || 1)) * (width - pad.left - pad.right);
  const y = (value: number) => pad.top + ((hi - value) / span) * (height - pad.top - pad.bottom);
  let d = '';
  let pen = false;
  for (let i = 0; i < t.length; i++) {
    const value = v[i];
    if (value === null || value === undefined) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${fixed(x(t[i]!))},${fixed(y(value))}`;
    pen = true;
  }
  const colour = options.colour ?? '#1849a9';
  const area = options.area ? `${d}L${fixed(x(t1))},${fixed(y(0))}L${fixed(x(t0))},${fixed(y(0))}Z` : '';
  const ticks = [hi, (hi + lo) / 2, lo];
  const day = 86_400_000;
  const timeLabel = (ms: number) =>
    new Date(ms)
      .toISOString()
      .slice(0, t1 - t0 > 2 * day ? 10 : 16)
      .replace('T', ' ');
  return html`<svg viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="${trustedHtml(idOf(options.title))}-t ${trustedHtml(idOf(options.title))}-d"><title id="${idOf(options.title)}-t">${options.title}</title><desc id="${idOf(options.title)}-d">${options.description}</desc>
${ticks.map((tick) => html`<line x1="${pad.left}" x2="${width - pad.right}" y1="${fixed(y(tick))}" y2="${fixed(y(tick))}" stroke="#eaecf0"/><text x="${pad.left - 6}" y="${fixed(y(tick) + 4)}" text-anchor="end" font-size="11" fill="#4f5868">${options.format(tick)}</text>`)}
${area ? html`<path d="${area}" fill="${colour}" fill-opacity="0.18"/>` : ''}<path d="${d}" fill="none" stroke="${colour}" stroke-width="1.5"/>
${rules.map((r) => html`<line x1="${pad.left}" x2="${width - pad.right}" y1="${fixed(y(r.value))}" y2="${fixed(y(r.value))}" stroke="${r.colour}" stroke-dasharray="4 3"/><text x="${width - pad.right - 2}" y="${fixed(y(r.value) - 3)}" text-anchor="end" font-size="11" fill="${r.colour}">${r.label}</text>`)}
${(options.marks ?? []).map((m) => html`<circle cx="${fixed(x(m.t))}" cy="${fixed(y(m.value))}" r="4" fill="${m.colour}"><title>${m.label}</title></circle>`)}
<text x="${pad.left}" y="${height - 6}" font-size="11" fill="#4f5868">${timeLabel(t0)}</text><text x="${width - pad.right}" y="${height - 6}" text-anchor="end" font-size="11" fill="#4f5868">${timeLabel(t1)}</text>
</svg>`;
}

function idOf(title: string): string {
  return `c-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}
