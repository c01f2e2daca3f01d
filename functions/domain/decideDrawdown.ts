import type { DrawdownNotice, DrawdownRecovery, LevelState } from './alertMachine';
import { drawdown, drawdownCurve, type DrawdownResult } from './drawdown';
import { drawdownLevels, type DrawdownLevelsInput } from './drawdownLevels';
import { deepestSince, firstReached, shallowestBetween } from './gapCrossing';
import { INTERVAL_MS } from './interval';
import type { SeriesPoint } from './series';
import { ROLLUP_TOLERANCE_PCT } from './drawdownRollup';

/** What a poll brought: the exact window, and where its own points begin. */
export interface DrawdownPoints {
  /** The account's stored points over the lookback window, oldest first. */
  readonly series: readonly SeriesPoint[];
  /** The oldest timestamp of the points this poll wrote; `null`: none (only the newest point is judged). */
  readonly writtenFromMs: number | null;
  /** The poll's points re-fetch history already evaluated (a first poll, an interval change): no level re-arms from a recovery among them. */
  readonly refetched: boolean;
}

/** The drawdown notice to send, dated where points were missing when it happened. */
export interface DecidedNotice extends DrawdownNotice {
  /** When the curve first reached the level, if before the newest point (a crossing in a filled gap); `null` at the newest point. */
  readonly crossedAt: number | null;
  /** How long ago that crossing was, when longer than the account's staleness limit; `null` otherwise. */
  readonly lateByMs: number | null;
}

/** What the levels of an account do on a poll's points. */
export type DrawdownDecision =
  | { readonly kind: 'no-data' }
  | {
      readonly kind: 'measured';
      readonly result: DrawdownResult;
      readonly last: SeriesPoint;
      /** The notice to send, if any. */
      readonly notice: DecidedNotice | null;
      /** The levels a notice had named that recovered (their incidents close), the gap's first. */
      readonly recoveries: readonly DrawdownRecovery[];
      /** The level states to store, keyed by level; `null` when no level moved. */
      readonly nextLevels: Readonly<Record<string, LevelState>> | null;
      /** The notice's level is reached only through marked steps (`result.favourableCurrentPct` is below it). */
      readonly crossingOnMarkedStepsOnly: boolean;
    };

/**
 * Decides an account's drawdown levels on the points a poll brought, over the stored state. In
 * order, over the poll's points: the shallowest before the deepest (a breached level that
 * recovered there is re-armed), the gap's deepest point (a level crossed during an outage fires
 * once, even if the drawdown has recovered since), then the newest point from the states that
 * left. One notice at most (the gap's, else the newest point's, else the re-arm's); a level that
 * recovered in the gap and was crossed again stays one open incident (no recovery for it).
 */
export function decideDrawdown(input: DrawdownLevelsInput, points: DrawdownPoints): DrawdownDecision {
  const { series, writtenFromMs, refetched } = points;
  const result = drawdown(series);
  const last = series[series.length - 1];
  if (!result || !last) return { kind: 'no-data' };
  const quiet = { kind: 'measured', result, last, notice: null, recoveries: [], nextLevels: null, crossingOnMarkedStepsOnly: false } as const;
  if (input.account.drawdownThresholds.length === 0) return quiet;

  const levels = drawdownLevels(input);
  const curve = writtenFromMs === null ? [] : drawdownCurve(series);
  const deepest = writtenFromMs === null ? null : deepestSince(curve, writtenFromMs);
  const deeper = deepest && deepest.timestamp < last.timestamp && deepest.drawdownPct > result.currentPct ? deepest : null;
  const shallowest = writtenFromMs === null || refetched ? null : shallowestBetween(curve, writtenFromMs, (deeper ?? last).timestamp);
  const rearmAt = shallowest && shallowest.drawdownPct < Math.min(result.currentPct, deeper?.drawdownPct ?? Number.POSITIVE_INFINITY) ? shallowest : null;
  const rearm = rearmAt ? levels.evaluate(rearmAt.drawdownPct, last, series) : null;
  const statesAfter = (e: { decisions: readonly { level: number; nextState: LevelState }[] }) =>
    new Map(e.decisions.map((d): [number, LevelState] => [d.level, d.nextState]));
  const during = deeper ? levels.evaluate(deeper.drawdownPct, last, series, rearm ? statesAfter(rearm) : undefined) : null;
  const afterGap = during ? statesAfter(during) : rearm ? statesAfter(rearm) : undefined;
  const evaluation = levels.evaluate(result.currentPct, last, series, afterGap);
  const sent = during?.notice ?? evaluation.notice ?? rearm?.notice ?? null;
  const notice = sent && namingEveryFiring(sent, [during?.notice, evaluation.notice, rearm?.notice]);

  // A level crossed again after recovering is dated from its new crossing.
  const crossingFrom = rearmAt && sent !== rearm?.notice ? rearmAt.timestamp : writtenFromMs;
  const reached = notice && crossingFrom !== null ? firstReached(curve, crossingFrom, notice.level) : null;
  // A crossing is dated (the notices then speak of a gap filled since) only at a point before the
  // newest: points were missing when it happened. At the newest point it is this poll's own.
  const crossedAt = reached !== null && reached < last.timestamp ? reached : null;
  const staleLimitMs = input.rules.staleAfterIntervals * INTERVAL_MS[input.account.interval];
  const lateByMs = crossedAt !== null && input.now - crossedAt > staleLimitMs ? input.now - crossedAt : null;
  const refired = new Set(notice?.levels ?? []);
  const gapRecoveries = (rearm?.recoveries ?? []).filter((r) => !refired.has(r.level));
  return {
    ...quiet,
    notice: notice ? { ...notice, crossedAt, lateByMs } : null,
    recoveries: [...gapRecoveries, ...evaluation.recoveries],
    nextLevels: levels.moved(evaluation) ? Object.fromEntries(evaluation.decisions.map((d) => [String(d.level), d.nextState])) : null,
    crossingOnMarkedStepsOnly: notice !== null && result.favourableCurrentPct < notice.level,
  };
}

/**
 * The poll's one notice `sent`, naming as first fired every level any of the poll's evaluations
 * fired: a step whose notice is not the one sent (the re-arm's, at the shallowest new point)
 * still records its levels as notified, so the notice sent must name them.
 */
function namingEveryFiring(sent: DrawdownNotice, evaluated: readonly (DrawdownNotice | null | undefined)[]): DrawdownNotice {
  const fired = new Set(evaluated.flatMap((n) => n?.newlyFired ?? []));
  return { ...sent, newlyFired: sent.levels.filter((level) => fired.has(level)) };
}

/** A drawdown measured from the stored rollup and the points after it. */
export interface RollupMeasure {
  readonly currentPct: number;
  /** The newest stored point. */
  readonly last: SeriesPoint;
  /** The oldest timestamp of the points this poll wrote (`null`: none). */
  readonly writtenFromMs: number | null;
}

/**
 * Whether a poll may stop at the rollup's figure: it brought at most the newest point (a filled
 * gap is evaluated point by point on the exact series), no armed kill switch is within reach of
 * its level or re-arm margin (the kill switch decides on the exact series), and a drawdown
 * anywhere within `ROLLUP_TOLERANCE_PCT` of the figure would leave every level's stored state as
 * it is and send nothing (the machine is monotone in the drawdown, so both ends and the middle
 * decide it). Never true on a first evaluation (every level is new).
 */
export function quietAtRollup(input: DrawdownLevelsInput, measure: RollupMeasure): boolean {
  const { currentPct, last, writtenFromMs } = measure;
  if (writtenFromMs !== null && last.timestamp > writtenFromMs) return false;
  const { killSwitch } = input.account;
  if (killSwitch !== null && currentPct + ROLLUP_TOLERANCE_PCT >= killSwitch - input.rules.hysteresisPct) return false;
  const levels = drawdownLevels(input);
  return [currentPct - ROLLUP_TOLERANCE_PCT, currentPct, currentPct + ROLLUP_TOLERANCE_PCT].every((value) => {
    const evaluation = levels.evaluate(value, last);
    return evaluation.notice === null && !levels.moved(evaluation);
  });
}
