import type { KillSwitchConfirm } from '../../../functions/domain/account';
import { drawdown } from '../../../functions/domain/drawdown';
import { killSwitchCrossing } from '../../../functions/domain/killSwitchCrossing';
import { decideKillSwitch, type KillSwitchState } from '../../../functions/domain/killSwitchDecision';
import { rereadDrawdown, rereadWindows, type RereadVerdict } from '../../../functions/domain/killSwitchReread';
import type { SeriesPoint } from '../../../functions/domain/series';

export const MINUTE = 60_000;
/** Minute 0 of every path (a Monday midnight, UTC): every interval's points fall on its multiples. */
export const PATH_START = Date.UTC(2030, 0, 7);

/** A path of `1m` samples from `PATH_START`, one per minute, from equity values (trading only: PnL is equity minus the first). */
export function minutePath(equities: readonly number[]): SeriesPoint[] {
  const first = equities[0] ?? 0;
  return equities.map((equity, i) => ({ timestamp: PATH_START + i * MINUTE, equity, pnl: equity - first }));
}

/** What the polls of one path came to. */
export interface PollsOutcome {
  /** The minute of the poll that fired (it runs 30 s into the minute after the chain showed that minute), or `null`. */
  readonly firedAt: number | null;
  /** The minute of the first poll whose decision was `fire` or `awaiting-confirmation` (the level crossed on the account's series). */
  readonly firstCrossedAt: number | null;
  readonly verdict: RereadVerdict | null;
  /** Each poll's minute and outcome, for a failing case's message. */
  readonly log: readonly string[];
}

/**
 * The kill switch of one account over a `1m` path, with collect's pure steps and nothing else:
 * a poll every `intervalMinutes` (30 s into the minute after its point), the account's series at
 * its interval up to the newest minute the chain shows (`shows(minute)`, default the poll's own:
 * a lagging chain shows less), `killSwitchCrossing` over the points the poll brought,
 * `decideKillSwitch`, and on `fire` the `1m` re-read (`rereadWindows`, `rereadDrawdown`) of the
 * samples the chain shows. A refuted re-read keeps the state, as `evaluateKillSwitch` does. Stops
 * at the first confirmed firing.
 */
export function runPolls(
  path: readonly SeriesPoint[],
  options: {
    readonly levelPct: number;
    readonly intervalMinutes: number;
    readonly confirm?: KillSwitchConfirm;
    readonly shows?: (pollMinute: number) => number;
    readonly firstPoll?: number;
  },
): PollsOutcome {
  const k = options.intervalMinutes;
  const log: string[] = [];
  let state: KillSwitchState | null = null;
  let seen = -1;
  let firstCrossedAt: number | null = null;
  for (let t = options.firstPoll ?? k; t < path.length; t += k) {
    const shown = Math.min(t, options.shows?.(t) ?? t);
    const series = path.filter((_, i) => i <= shown && i % k === 0);
    const newest = series[series.length - 1];
    if (!newest) continue;
    const newestMinute = (newest.timestamp - PATH_START) / MINUTE;
    const newFrom = seen < 0 || newestMinute <= seen ? null : PATH_START + (seen + 1) * MINUTE;
    const first = seen < 0;
    seen = Math.max(seen, newestMinute);
    const now = PATH_START + t * MINUTE + 30_000;
    const crossing = first ? null : killSwitchCrossing(series, options.levelPct, newFrom);
    const decision = decideKillSwitch({
      levelPct: options.levelPct,
      confirm: options.confirm ?? 'now',
      drawdownPct: drawdown(series)?.currentPct ?? null,
      crossing,
      dataFresh: now - newest.timestamp <= 3 * k * MINUTE,
      dataComplete: true,
      state,
      breachedBeforeTracking: false,
      intervalMs: k * MINUTE,
      hysteresisPct: 1,
      now,
    });
    if (first) {
      // The first poll (tracking begins) only records the state.
      state = decision.kind === 'off' ? state : decision.next;
      continue;
    }
    if (decision.kind === 'fire' || decision.kind === 'awaiting-confirmation') firstCrossedAt ??= t;
    if (decision.kind !== 'fire' || crossing === null) {
      if (decision.kind !== 'off') state = decision.next;
      log.push(`${t}: ${decision.kind}`);
      continue;
    }
    const windows = rereadWindows(crossing.peakAt, crossing.at);
    const minutes = path.filter((p, i) => i <= shown && windows.some((w) => p.timestamp >= w.from && p.timestamp <= w.to));
    const verdict = rereadDrawdown(series, { peakAt: crossing.peakAt, troughAt: crossing.at }, minutes, options.levelPct);
    log.push(`${t}: fire, re-read ${verdict.kind}${verdict.kind === 'unreadable' ? '' : ` ${verdict.minutes.map((m) => m.drawdownPct.toFixed(2)).join('/')}`}`);
    if (verdict.kind === 'confirmed') return { firedAt: t, firstCrossedAt, verdict, log };
  }
  return { firedAt: null, firstCrossedAt, verdict: null, log };
}
