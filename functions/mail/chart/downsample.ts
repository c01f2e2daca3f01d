/** A point of a time series: epoch milliseconds and a value. */
export interface SeriesPoint {
  t: number;
  v: number;
}

/**
 * Reduces a time-sorted series to at most about `4 × buckets` points by keeping, for each of
 * `buckets` equal time slices, its first, lowest, highest and last point (in time order). Peaks
 * and troughs survive, so a line drawn at one bucket per pixel looks the same as the full series.
 * Linear in the number of points; short series are returned unchanged.
 */
export function downsampleMinMax(points: readonly SeriesPoint[], buckets: number): SeriesPoint[] {
  const n = points.length;
  if (buckets < 1 || n <= buckets * 4) return [...points];
  const first = points[0] as SeriesPoint;
  const last = points[n - 1] as SeriesPoint;
  const span = last.t - first.t;
  if (span <= 0) return [first, last];

  const out: SeriesPoint[] = [];
  let bucket = -1;
  let start = first;
  let min = first;
  let max = first;
  let end = first;
  const flush = (): void => {
    const kept = [start, min, max, end].sort((a, b) => a.t - b.t);
    for (const p of kept) if (out[out.length - 1] !== p) out.push(p);
  };
  for (const p of points) {
    const b = Math.min(buckets - 1, Math.floor(((p.t - first.t) / span) * buckets));
    if (b !== bucket) {
      if (bucket >= 0) flush();
      bucket = b;
      start = min = max = end = p;
      continue;
    }
    if (p.v < min.v) min = p;
    if (p.v > max.v) max = p;
    end = p;
  }
  flush();
  return out;
}
