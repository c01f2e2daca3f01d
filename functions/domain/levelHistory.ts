import type { LevelState } from './alertMachine';
import type { AlertHistoryEntry } from './alertHistoryEntry';
import type { DrawdownDecision } from './decideDrawdown';

type Measured = Extract<DrawdownDecision, { kind: 'measured' }>;

/**
 * The alert-history events of one evaluation, against the `prior` level states: a level fired
 * when it went from armed to breached, or when the notice fired it (a level crossed in a gap and
 * recovered since fires and recovers in the same poll); it recovered when it went from breached to
 * armed, or when the decision sent its recovery. A level the notice names is dated at the notice's
 * crossing when a gap dated it, with its drawdown, and marked late when it was announced past the
 * staleness limit. Nothing when no level moved.
 */
export function levelHistory(
  prior: ReadonlyMap<number, LevelState>,
  decision: Pick<Measured, 'notice' | 'recoveries' | 'nextLevels' | 'result'>,
  now: number,
): AlertHistoryEntry[] {
  if (!decision.nextLevels) return [];
  const { notice, result } = decision;
  const entries: AlertHistoryEntry[] = [];
  for (const [key, next] of Object.entries(decision.nextLevels)) {
    const level = Number(key);
    const wasArmed = (prior.get(level)?.status ?? 'armed') === 'armed';
    const named = notice !== null && notice.levels.includes(level);
    const recovery = decision.recoveries.find((r) => r.level === level);
    // A level the notice fired may be armed again already: crossed in a gap and recovered since.
    const fired = wasArmed && (next.status === 'breached' || (named && notice.newlyFired.includes(level)));
    if (fired) {
      entries.push({
        kind: 'fired',
        level,
        drawdownPct: Math.max(0, named ? notice.drawdownPct : (next.breachedPct ?? next.lastValue ?? result.currentPct)),
        at: (named ? notice.crossedAt : null) ?? next.breachedAt ?? now,
        recordedAt: now,
        lateByMs: named && notice.lateByMs !== null && notice.lateByMs > 0 ? Math.round(notice.lateByMs) : null,
        notified: named && notice.newlyFired.includes(level),
        baseline: next.baseline === true,
      });
    }
    if (next.status === 'armed' && (!wasArmed || fired)) {
      entries.push({ kind: 'recovered', level, drawdownPct: Math.max(0, recovery?.drawdownPct ?? next.lastValue ?? result.currentPct), at: now });
    }
  }
  return entries.sort((a, b) => a.at - b.at || order(a) - order(b));
}

/** Within one instant: fired before recovered, lower levels first. */
function order(entry: AlertHistoryEntry): number {
  return (entry.kind === 'recovered' ? 1_000 : 0) + ('level' in entry ? entry.level : 0);
}
