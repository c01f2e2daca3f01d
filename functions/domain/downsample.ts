/**
 * Which points of a time series a chart of at most `maxPoints` points keeps: all of them when
 * they fit; otherwise the series is cut into equal spans of time and each span keeps, for each of
 * `values`, the index of its lowest and of its highest value (in time order, without repeats),
 * together with every index in `keep` and the last point. So no extreme of any line is lost (the
 * deepest drawdown, the highest equity), and a marked point (a deposit) keeps its place.
 * `timestamps` must be sorted; returns sorted indices.
 */
export function downsampleIndices(
  timestamps: readonly number[],
  values: readonly (readonly number[])[],
  maxPoints: number,
  keep: ReadonlySet<number> = new Set(),
): number[] {
  const n = timestamps.length;
  if (n <= maxPoints) return Array.from({ length: n }, (_, i) => i);
  const first = timestamps[0]!;
  const span = Math.max(1, timestamps[n - 1]! - first);
  const buckets = Math.max(1, Math.floor(maxPoints / Math.max(1, 2 * values.length)));
  const chosen = new Set<number>(keep);
  chosen.add(n - 1);
  let start = 0;
  while (start < n) {
    const bucket = Math.min(buckets - 1, Math.floor(((timestamps[start]! - first) / span) * buckets));
    let end = start;
    while (end + 1 < n && Math.min(buckets - 1, Math.floor(((timestamps[end + 1]! - first) / span) * buckets)) === bucket) end++;
    for (const line of values) {
      let low = start;
      let high = start;
      for (let i = start + 1; i <= end; i++) {
        if (line[i]! < line[low]!) low = i;
        if (line[i]! > line[high]!) high = i;
      }
      chosen.add(low);
      chosen.add(high);
    }
    start = end + 1;
  }
  return [...chosen].filter((i) => i >= 0 && i < n).sort((a, b) => a - b);
}
