/** One email SES accepted: its event id and recipient (the delivery key), and when (simulated ms). */
export interface AcceptedSend {
  readonly key: string;
  readonly at: number;
}

/** A chaos run's sends of one kind against the fault-free run's. */
export interface SendTally {
  /** Keys the fault-free run delivered. */
  readonly expected: number;
  /** Keys the fault-free run delivered and the chaos run did not. */
  readonly missing: number;
  /** Keys delivered more than once in the chaos run (each counted once). */
  readonly duplicated: number;
  /** Keys only the chaos run delivered (e.g. an alert on a crossing the faults moved). */
  readonly extra: number;
  /** For each key both runs delivered: chaos first send minus fault-free first send, ms, ascending. */
  readonly lateMs: readonly number[];
}

function firstSends(sends: readonly AcceptedSend[]): { first: Map<string, number>; count: Map<string, number> } {
  const first = new Map<string, number>();
  const count = new Map<string, number>();
  for (const { key, at } of sends) {
    first.set(key, Math.min(first.get(key) ?? at, at));
    count.set(key, (count.get(key) ?? 0) + 1);
  }
  return { first, count };
}

/** Compares what the chaos run delivered with what the fault-free run of the same seed delivered. */
export function tallySends(baseline: readonly AcceptedSend[], chaos: readonly AcceptedSend[]): SendTally {
  const base = firstSends(baseline);
  const run = firstSends(chaos);
  const lateMs: number[] = [];
  let missing = 0;
  for (const [key, at] of base.first) {
    const got = run.first.get(key);
    if (got === undefined) missing++;
    else lateMs.push(got - at);
  }
  return {
    expected: base.first.size,
    missing,
    duplicated: [...run.count.values()].filter((n) => n > 1).length,
    extra: [...run.first.keys()].filter((key) => !base.first.has(key)).length,
    lateMs: lateMs.sort((a, b) => a - b),
  };
}

/** Curve points of the chaos run against the fault-free run: per account, the stored timestamps. */
export function tallyPoints(
  baseline: ReadonlyMap<string, readonly number[]>,
  chaos: ReadonlyMap<string, readonly number[]>,
): { expected: number; lost: number; duplicated: number } {
  let expected = 0;
  let lost = 0;
  let duplicated = 0;
  for (const [account, stamps] of baseline) {
    const got = chaos.get(account) ?? [];
    const seen = new Set(got);
    duplicated += got.length - seen.size;
    expected += stamps.length;
    lost += stamps.filter((ts) => !seen.has(ts)).length;
  }
  return { expected, lost, duplicated };
}

/** The `p`th percentile (nearest rank) of ascending `sorted`; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
