import { downsampleMinMax, type SeriesPoint } from './downsample';
import { formatCompactMoney, formatTime } from '../render/format';
import { chartFontOptions, type ChartFontOptions } from './chartFonts';
import { niceScale, type NiceScale } from './niceScale';
import { resvg } from './resvg';
import { timeTicks } from './timeTicks';

/** A curve point as stored or received: epoch ms and a number or decimal string. */
/** The names above the two panels: their own value axes, in USD. */
const PANEL_LABELS = ['Equity (USD)', 'PnL (USD)'] as const;
const PANEL_BORDER = '#cbd5e1';

export interface ChartPointInput {
  timestamp: number;
  value: number | string;
}

/** What the chart shows. */
export interface ChartInput {
  equity: readonly ChartPointInput[];
  pnl: readonly ChartPointInput[];
  /** The recipient's IANA time zone; axis labels and the subtitle use it. */
  timeZone: string;
  /** Default `Equity and PnL`. */
  title?: string;
  /** Default: the date range covered and the time zone. */
  subtitle?: string;
  /** Size in CSS pixels; defaults 544 × 320 (fits a 600 px email card). */
  width?: number;
  height?: number;
}

export interface ChartPngOptions extends ChartFontOptions {
  /** Pixel density of the PNG; default 2, so the image stays sharp on high-DPI screens. */
  scale?: number;
}

const FONT = "DejaVu Sans, 'Segoe UI', Helvetica, Arial, sans-serif";
const EQUITY = '#2563eb';
const PNL = '#0f766e';
const GOOD_FILL = '#10b981';
const BAD_FILL = '#ef4444';
const GRID = '#eef0f3';
const AXIS_TEXT = '#6b7280';

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const r1 = (n: number): string => (Math.round(n * 10) / 10).toString();

function toSeries(points: readonly ChartPointInput[]): SeriesPoint[] {
  const out: SeriesPoint[] = [];
  for (const p of points) {
    const v = typeof p.value === 'number' ? p.value : Number(p.value);
    if (Number.isFinite(p.timestamp) && Number.isFinite(v)) out.push({ t: p.timestamp, v });
  }
  for (let i = 1; i < out.length; i += 1) {
    if ((out[i] as SeriesPoint).t < (out[i - 1] as SeriesPoint).t) return out.sort((a, b) => a.t - b.t);
  }
  return out;
}

interface Frame {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

interface Panel {
  frame: Frame;
  scale: NiceScale;
  series: SeriesPoint[];
}

function linePath(series: readonly SeriesPoint[], x: (t: number) => number, y: (v: number) => number): string {
  return series.map((p, i) => `${i === 0 ? 'M' : 'L'}${r1(x(p.t))} ${r1(y(p.v))}`).join('');
}

/**
 * Renders equity (top panel) and PnL (bottom panel, shaded green above zero and red below) over
 * time as an SVG document. Long series are downsampled to about four points per pixel column;
 * empty series show "No data yet"; a single point is drawn as a dot.
 */
export function renderChartSvg(input: ChartInput): string {
  const width = input.width ?? 544;
  const height = input.height ?? 320;
  const { timeZone } = input;
  const rawEquity = toSeries(input.equity);
  const rawPnl = toSeries(input.pnl);
  const bounds = timeBounds(rawEquity, rawPnl);
  const [t0, t1] = bounds ?? [0, 0];

  const equityScale = niceScale(...extent(rawEquity), 4);
  const pnlScale = niceScale(...extent(rawPnl), 3, true);
  const yLabels = [...(rawEquity.length ? equityScale.ticks : []), ...(rawPnl.length ? pnlScale.ticks : [])].map(formatCompactMoney);
  const left = 14 + Math.max(4, ...yLabels.map((l) => l.length)) * 6.6;
  const right = width - 14;
  const top = 72;
  const bottom = height - 30;
  const gap = 34;
  const equityBottom = top + (bottom - top - gap) * 0.6;
  const plotWidth = Math.max(1, right - left);
  const x = (t: number): number => (t1 > t0 ? left + ((t - t0) / (t1 - t0)) * plotWidth : left + plotWidth / 2);
  const buckets = Math.round(plotWidth);

  const panels: [Panel, Panel] = [
    { frame: { left, right, top, bottom: equityBottom }, scale: equityScale, series: downsampleMinMax(rawEquity, buckets) },
    { frame: { left, right, top: equityBottom + gap, bottom }, scale: pnlScale, series: downsampleMinMax(rawPnl, buckets) },
  ];
  const yOf =
    (p: Panel) =>
    (v: number): number =>
      p.frame.bottom - ((v - p.scale.min) / (p.scale.max - p.scale.min)) * (p.frame.bottom - p.frame.top);

  const parts: string[] = [];
  const text = (tx: number, ty: number, body: string, attrs: string): void => {
    parts.push(`<text x="${r1(tx)}" y="${r1(ty)}" ${attrs}>${escapeXml(body)}</text>`);
  };

  // Title, subtitle and legend.
  const title = input.title ?? 'Equity and PnL';
  const subtitle = input.subtitle ?? (bounds ? `${dateRange(t0, t1, timeZone)} · ${timeZone}` : `No data yet · ${timeZone}`);
  text(2, 24, title, `font-size="15" font-weight="bold" fill="#111827"`);
  text(2, 43, subtitle, `font-size="11" fill="${AXIS_TEXT}"`);
  const legend = [
    ['Equity', EQUITY],
    ['PnL', PNL],
  ] as const;
  let lx = right;
  for (const [name, colour] of [...legend].reverse()) {
    const w = name.length * 7 + 26;
    lx -= w;
    parts.push(`<rect x="${r1(lx)}" y="15" width="14" height="4" rx="2" fill="${colour}"/>`);
    text(lx + 19, 21, name, `font-size="11" fill="#374151"`);
  }

  // Two separate panels, each framed and named above its frame, so the split value axis does not read as one scale.
  panels.forEach(({ frame }, index) => {
    parts.push(
      `<rect class="panel-frame" x="${r1(frame.left)}" y="${r1(frame.top)}" width="${r1(plotWidth)}" height="${r1(frame.bottom - frame.top)}" fill="none" stroke="${PANEL_BORDER}" stroke-width="1"/>`,
    );
    text(frame.left, frame.top - 6, PANEL_LABELS[index] ?? '', `class="panel-label" font-size="11" font-weight="bold" fill="#374151"`);
  });

  // Vertical time grid within each panel (not across the gap), and the time labels.
  const ticks = bounds ? timeTicks(t0, t1, timeZone, Math.max(2, Math.floor(plotWidth / 90))) : [];
  for (const tick of ticks) {
    const tx = x(tick.t);
    for (const { frame } of panels) {
      parts.push(`<line x1="${r1(tx)}" y1="${r1(frame.top)}" x2="${r1(tx)}" y2="${r1(frame.bottom)}" stroke="${GRID}" stroke-width="1"/>`);
    }
    const anchor = tx - left < 24 ? 'start' : right - tx < 24 ? 'end' : 'middle';
    text(tx, bottom + 18, tick.label, `font-size="11" fill="${AXIS_TEXT}" text-anchor="${anchor}"`);
  }

  const defs: string[] = [
    `<linearGradient id="eqFill" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${EQUITY}" stop-opacity="0.22"/><stop offset="1" stop-color="${EQUITY}" stop-opacity="0.02"/></linearGradient>`,
  ];

  panels.forEach((panel, index) => {
    const { frame, scale, series } = panel;
    const name = index === 0 ? 'Equity' : 'PnL';
    if (series.length === 0) {
      parts.push(`<rect x="${r1(frame.left)}" y="${r1(frame.top)}" width="${r1(plotWidth)}" height="${r1(frame.bottom - frame.top)}" rx="6" fill="#f8fafc"/>`);
      text(
        (frame.left + frame.right) / 2,
        (frame.top + frame.bottom) / 2 + 4,
        `No ${index === 0 ? 'equity' : 'PnL'} data yet`,
        `font-size="12" fill="#9ca3af" text-anchor="middle"`,
      );
      return;
    }
    const y = yOf(panel);
    for (const v of scale.ticks) {
      const ty = y(v);
      const isZero = index === 1 && v === 0;
      parts.push(
        `<line x1="${r1(frame.left)}" y1="${r1(ty)}" x2="${r1(frame.right)}" y2="${r1(ty)}" stroke="${isZero ? '#9ca3af' : GRID}" stroke-width="1"${isZero ? ' stroke-dasharray="4 3"' : ''}/>`,
      );
      text(frame.left - 8, ty + 4, formatCompactMoney(v), `font-size="11" fill="${AXIS_TEXT}" text-anchor="end"`);
    }
    const colour = index === 0 ? EQUITY : PNL;
    const last = series[series.length - 1] as SeriesPoint;
    if (series.length === 1) {
      parts.push(`<circle cx="${r1(x(last.t))}" cy="${r1(y(last.v))}" r="4" fill="${colour}"/>`);
      return;
    }
    const line = linePath(series, x, y);
    const first = series[0] as SeriesPoint;
    if (index === 0) {
      parts.push(`<path d="${line}L${r1(x(last.t))} ${r1(frame.bottom)}L${r1(x(first.t))} ${r1(frame.bottom)}Z" fill="url(#eqFill)"/>`);
    } else {
      const zero = y(Math.min(Math.max(0, scale.min), scale.max));
      const area = `${line}L${r1(x(last.t))} ${r1(zero)}L${r1(x(first.t))} ${r1(zero)}Z`;
      defs.push(
        `<clipPath id="above"><rect x="${r1(frame.left)}" y="${r1(frame.top)}" width="${r1(plotWidth)}" height="${r1(Math.max(0, zero - frame.top))}"/></clipPath>`,
        `<clipPath id="below"><rect x="${r1(frame.left)}" y="${r1(zero)}" width="${r1(plotWidth)}" height="${r1(Math.max(0, frame.bottom - zero))}"/></clipPath>`,
      );
      parts.push(`<path d="${area}" fill="${GOOD_FILL}" fill-opacity="0.18" clip-path="url(#above)"/>`);
      parts.push(`<path d="${area}" fill="${BAD_FILL}" fill-opacity="0.18" clip-path="url(#below)"/>`);
    }
    parts.push(
      `<path class="series-${name.toLowerCase()}" d="${line}" fill="none" stroke="${colour}" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"/>`,
    );
    parts.push(`<circle cx="${r1(x(last.t))}" cy="${r1(y(last.v))}" r="3.5" fill="#ffffff" stroke="${colour}" stroke-width="2"/>`);
  });

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}">`,
    `<defs>${defs.join('')}</defs>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    ...parts,
    '</svg>',
  ].join('\n');
}

function dateRange(t0: number, t1: number, timeZone: string): string {
  const from = formatTime(t0, timeZone, 'date');
  const to = formatTime(t1, timeZone, 'date');
  return from === to ? from : `${from} – ${to}`;
}

function timeBounds(...series: SeriesPoint[][]): [number, number] | null {
  const nonEmpty = series.filter((s) => s.length > 0);
  if (nonEmpty.length === 0) return null;
  return [Math.min(...nonEmpty.map((s) => (s[0] as SeriesPoint).t)), Math.max(...nonEmpty.map((s) => (s[s.length - 1] as SeriesPoint).t))];
}

function extent(series: readonly SeriesPoint[]): [number, number] {
  if (series.length === 0) return [0, 1];
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of series) {
    if (p.v < lo) lo = p.v;
    if (p.v > hi) hi = p.v;
  }
  return [lo, hi];
}

/** Renders the chart to a PNG (`scale` × the CSS size) with resvg. */
export function renderChartPng(input: ChartInput, options: ChartPngOptions = {}): Buffer {
  const svg = renderChartSvg(input);
  const { Resvg } = resvg();
  const image = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: options.scale ?? 2 },
    background: '#ffffff',
    font: chartFontOptions(options),
  });
  return image.render().asPng();
}
