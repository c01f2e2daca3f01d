/** One email SES accepted: its event id and recipient (the delivery key), and when (simulated ms). */
export interface AcceptedSend {
  readonly key: string;
  readonly at: number;
  /**
   * What the email is about, when several keys can stand for it: a drawdown alert's id ends with
   * the time of the level's previous send (`drawdown:<account>:<level>:fired:<lastSentAt>`), which a
   * fault moves, so the chaos run's re-fire of a level has another id than the fault-free run's.
   * Default: the key.
   */
  readonly occasion?: string;
}

/** A chaos run's sends of one kind against the fault-free run's. */
export interface SendTally {
  /** Keys the fault-free run delivered. */
  readonly expected: number;
  /** Fault-free sends with no chaos send of the same occasion (in order, within the tolerance). */
  readonly missing: number;
  /** Keys delivered more than once in the chaos run (each counted once). */
  readonly duplicated: number;
  /** Chaos sends with no fault-free send of the same occasion. */
  readonly extra: number;
  /** For each pair: chaos first send minus fault-free first send, ms, ascending. */
  readonly lateMs: readonly number[];
  /** The sends left unpaired, by occasion and time: what `missing` and `extra` count. */
  readonly unpaired: { readonly missing: readonly Unpaired[]; readonly extra: readonly Unpaired[] };
}

/** A send of one run with no counterpart in the other. */
export interface Unpaired {
  readonly occasion: string;
  readonly at: number;
}

function firstSends(sends: readonly AcceptedSend[]): { first: Map<string, { at: number; occasion: string }>; count: Map<string, number> } {
  const first = new Map<string, { at: number; occasion: string }>();
  const count = new Map<string, number>();
  for (const { key, at, occasion } of sends) {
    const seen = first.get(key);
    if (!seen || at < seen.at) first.set(key, { at, occasion: occasion ?? key });
    count.set(key, (count.get(key) ?? 0) + 1);
  }
  return { first, count };
}

function byOccasion(first: ReadonlyMap<string, { at: number; occasion: string }>): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const { at, occasion } of first.values()) groups.set(occasion, [...(groups.get(occasion) ?? []), at]);
  for (const times of groups.values()) times.sort((a, b) => a - b);
  return groups;
}

/**
 * Compares what the chaos run delivered with what the fault-free run of the same seed delivered.
 * Sends are paired per occasion, in time order: the n-th fault-free send of an occasion with the
 * chaos run's next one no more than `toleranceMs` away (earlier or later); a send left unpaired is
 * missing (fault-free) or extra (chaos). Duplicates are counted per key: the same delivery twice.
 */
export function tallySends(baseline: readonly AcceptedSend[], chaos: readonly AcceptedSend[], toleranceMs = Number.POSITIVE_INFINITY): SendTally {
  const base = firstSends(baseline);
  const run = firstSends(chaos);
  const chaosGroups = byOccasion(run.first);
  const lateMs: number[] = [];
  const missing: Unpaired[] = [];
  const extra: Unpaired[] = [];
  for (const [occasion, expected] of byOccasion(base.first)) {
    const got = chaosGroups.get(occasion) ?? [];
    chaosGroups.delete(occasion);
    let i = 0;
    let j = 0;
    while (i < expected.length && j < got.length) {
      const late = got[j]! - expected[i]!;
      if (Math.abs(late) <= toleranceMs) {
        lateMs.push(late);
        i++;
        j++;
      } else if (late < 0) {
        extra.push({ occasion, at: got[j++]! });
      } else {
        missing.push({ occasion, at: expected[i++]! });
      }
    }
    missing.push(...expected.slice(i).map((at) => ({ occasion, at })));
    extra.push(...got.slice(j).map((at) => ({ occasion, at })));
  }
  for (const [occasion, got] of chaosGroups) extra.push(...got.map((at) => ({ occasion, at })));
  return {
    expected: base.first.size,
    missing: missing.length,
    duplicated: [...run.count.values()].filter((n) => n > 1).length,
    extra: extra.length,
    lateMs: lateMs.sort((a, b) => a - b),
    unpaired: { missing, extra },
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
