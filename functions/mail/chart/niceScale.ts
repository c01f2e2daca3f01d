/** A value axis: its domain, rounded outward to whole ticks, and the tick values. */
export interface NiceScale {
  min: number;
  max: number;
  ticks: number[];
}

function niceStep(rough: number): number {
  const power = 10 ** Math.floor(Math.log10(rough));
  const fraction = rough / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

/**
 * Round ticks (1, 2, 2.5 or 5 × 10ⁿ) spanning `[lo, hi]` with about `count` intervals. A flat
 * range (one point, or a constant series) is widened around its value so the line sits mid-axis.
 * `includeZero` stretches the domain to contain 0.
 */
export function niceScale(lo: number, hi: number, count = 4, includeZero = false): NiceScale {
  let a = Math.min(lo, hi);
  let b = Math.max(lo, hi);
  if (includeZero) {
    a = Math.min(a, 0);
    b = Math.max(b, 0);
  }
  if (!Number.isFinite(a) || !Number.isFinite(b)) return { min: 0, max: 1, ticks: [0, 1] };
  if (b - a < Math.max(Math.abs(a), Math.abs(b), 1) * 1e-9) {
    const pad = Math.max(Math.abs(a) * 0.01, 1);
    a -= pad;
    b += pad;
  }
  const step = niceStep((b - a) / Math.max(1, count));
  let min = Math.floor(a / step) * step;
  let max = Math.ceil(b / step) * step;
  if (min > a) min -= step; // a / step can underflow to 0 for tiny a
  if (max < b) max += step;
  const ticks: number[] = [];
  for (let i = 0, v = min; v <= max + step * 1e-9 && i < 100; i += 1, v = min + i * step) {
    ticks.push(Number(v.toPrecision(12)));
  }
  return { min, max, ticks };
}
