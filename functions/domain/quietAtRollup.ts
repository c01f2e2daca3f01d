import { drawdownLevels, type DrawdownLevelsInput } from './drawdownLevels';
import { ROLLUP_TOLERANCE_PCT } from './drawdownRollup';
import type { SeriesPoint } from './series';

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
