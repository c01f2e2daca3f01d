import { downsampleMinMax } from './downsample';
import { resvg } from './resvg';

/** A small trend line: values over time, drawn without axes or text. */
export interface SparklineInput {
  readonly points: readonly { readonly timestamp: number; readonly value: number }[];
  /** Size in CSS pixels; default 96 × 28 (a table cell). */
  readonly width?: number;
  readonly height?: number;
}

const UP = '#047857';
const DOWN = '#b91c1c';
const BASELINE = '#cbd5e1';
const PAD = 2;

/**
 * The sparkline as an SVG document: the line from the first to the last point, green when the
 * last value is at or above the first and red below, and a dotted baseline at the first value.
 * Long series are downsampled to about two points per pixel column. No text, so no fonts are read.
 */
export function renderSparklineSvg(input: SparklineInput): string {
  const width = input.width ?? 96;
  const height = input.height ?? 28;
  const sorted = [...input.points].filter((p) => Number.isFinite(p.timestamp) && Number.isFinite(p.value)).sort((a, b) => a.timestamp - b.timestamp);
  const series = downsampleMinMax(
    sorted.map((p) => ({ t: p.timestamp, v: p.value })),
    Math.max(1, width),
  );
  const head = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`;
  const first = series[0];
  const last = series.at(-1);
  if (!first || !last || series.length < 2)
    return `${head}<line x1="${PAD}" y1="${height / 2}" x2="${width - PAD}" y2="${height / 2}" stroke="${BASELINE}" stroke-width="1" stroke-dasharray="2 2"/></svg>`;
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of series) {
    lo = Math.min(lo, p.v);
    hi = Math.max(hi, p.v);
  }
  const span = hi - lo || 1;
  const t0 = first.t;
  const dt = last.t - first.t || 1;
  const x = (t: number) => PAD + ((t - t0) / dt) * (width - 2 * PAD);
  const y = (v: number) => height - PAD - ((v - lo) / span) * (height - 2 * PAD);
  const r = (n: number) => Math.round(n * 10) / 10;
  const path = series.map((p, i) => `${i === 0 ? 'M' : 'L'}${r(x(p.t))} ${r(y(p.v))}`).join('');
  const colour = last.v >= first.v ? UP : DOWN;
  return `${head}<line x1="${PAD}" y1="${r(y(first.v))}" x2="${width - PAD}" y2="${r(y(first.v))}" stroke="${BASELINE}" stroke-width="1" stroke-dasharray="2 2"/><path d="${path}" fill="none" stroke="${colour}" stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round"/></svg>`;
}

/** Renders the sparkline to a PNG at `scale` × its CSS size (default 2, sharp on high-DPI screens). */
export function renderSparklinePng(input: SparklineInput, options: { scale?: number } = {}): Buffer {
  const { Resvg } = resvg();
  const image = new Resvg(renderSparklineSvg(input), {
    fitTo: { mode: 'zoom', value: options.scale ?? 2 },
    background: '#ffffff',
    // No text to draw: no font files to load.
    font: { loadSystemFonts: false, defaultFontFamily: 'sans-serif' },
  });
  return image.render().asPng();
}
