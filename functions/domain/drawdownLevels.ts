import type { TrackedAccount } from './account';
import { evaluateDrawdownAlerts, type DrawdownEvaluation, type LevelState } from './alertMachine';
import { drawdown } from './drawdown';
import type { SeriesPoint } from './series';
import { isDataFresh } from './staleness';

/** An account's drawdown levels as stored: what a decision reads. */
export interface StoredDrawdownLevels {
  /** Each level's stored state; a level not in it is armed. */
  readonly states: ReadonlyMap<number, LevelState>;
  /** `false` before the account's first evaluation (no state item yet): what is breached then is recorded, not announced. */
  readonly tracked: boolean;
  /** Drawdown alerts are muted until then (epoch ms); `null` when not snoozed. */
  readonly snoozedUntil: number | null;
}

/** The drawdown rules of a deployment. */
export interface DrawdownRules {
  readonly hysteresisPct: number;
  readonly repeatMs: number;
  readonly staleAfterIntervals: number;
}

/** What a drawdown decision is made for: the account, its stored levels, the rules and the time. */
export interface DrawdownLevelsInput {
  readonly account: Pick<TrackedAccount, 'address' | 'interval' | 'drawdownThresholds' | 'createdAt' | 'killSwitch'>;
  readonly stored: StoredDrawdownLevels;
  readonly rules: DrawdownRules;
  readonly now: number;
}

/** The alert machine run on an account's stored levels. */
export interface DrawdownLevels {
  /** The machine at `drawdownPct` with `last` as the newest point, from the stored states or from `from` (an earlier evaluation's, in the same poll). */
  evaluate(drawdownPct: number, last: SeriesPoint, series?: readonly SeriesPoint[], from?: ReadonlyMap<number, LevelState>): DrawdownEvaluation;
  /** Whether an evaluation changes a stored level (so the state item is to be rewritten). */
  moved(evaluation: DrawdownEvaluation): boolean;
}

/** The alert machine (`evaluateDrawdownAlerts`) bound to an account's stored levels, rules and time. */
export function drawdownLevels({ account, stored, rules, now }: DrawdownLevelsInput): DrawdownLevels {
  return {
    evaluate: (drawdownPct, last, series, from) =>
      evaluateDrawdownAlerts({
        account: account.address,
        drawdownPct,
        levels: account.drawdownThresholds,
        states: from ?? stored.states,
        snoozedUntil: stored.snoozedUntil,
        now,
        dataFresh: isDataFresh(last.timestamp, now, account.interval, rules.staleAfterIntervals),
        hysteresisPct: rules.hysteresisPct,
        repeatMs: rules.repeatMs,
        // First evaluation: what was already breached when tracking began is recorded, not announced.
        ...(!stored.tracked && series ? { breachedBeforeTracking: breachedAt(series, account.createdAt, account.drawdownThresholds) } : {}),
      }),
    moved: (evaluation) =>
      evaluation.decisions.some((d) => {
        const prior = stored.states.get(d.level);
        const next = d.nextState;
        return (
          !prior ||
          prior.status !== next.status ||
          prior.lastSentAt !== next.lastSentAt ||
          prior.breachedAt !== next.breachedAt ||
          Boolean(prior.baseline) !== Boolean(next.baseline) ||
          Boolean(prior.named) !== Boolean(next.named)
        );
      }),
  };
}

/** The levels the drawdown had reached at `at` (tracking start), measured on the points up to then. */
function breachedAt(series: readonly SeriesPoint[], at: number, levels: readonly number[]): number[] {
  const before = drawdown(series.filter((p) => p.timestamp <= at));
  return before ? levels.filter((level) => before.currentPct >= level) : [];
}
