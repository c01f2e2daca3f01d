import { drawdown, drawdownCurve } from '../../domain/drawdown';
import { deepestSince, firstReached, shallowestBetween } from '../../domain/gapCrossing';
import { INTERVAL_MS } from '../../domain/interval';
import { evaluateDrawdownAlerts, type DrawdownEvaluation, type LevelState } from '../../domain/alertMachine';
import { isDataFresh } from '../../domain/staleness';
import type { TrackedAccount } from '../../domain/account';
import type { AlertState, AlertStateRepository } from '../../store/alertStateRepository';
import { SNOOZE_RULE } from '../../store/alertStateRepository';
import type { CurvesRepository } from '../../store/curvesRepository';
import type { NotifyEvent } from '../../messages/notifyMessage';
import { lookbackWindowMs } from '../../domain/lookbackWindow';
import { ROLLUP_TOLERANCE_PCT, rollupOfSeries, type DrawdownRollup } from '../../domain/drawdownRollup';
import type { SeriesPoint } from '../../domain/series';
import { DRAWDOWN_ROLLUP_RULE, rollupFromState, rollupToState } from '../../store/drawdownRollupItem';
import { measureWithRollup } from './measureWithRollup';
import { storedSeries } from '../../store/storedSeries';
import { DRAWDOWN_RULE, drawdownStateSchema, levelStateOf, snoozeStateSchema } from '../../domain/drawdownState';

export { DRAWDOWN_RULE };

export interface DrawdownSettings {
  /** How far back the running peak is looked for. */
  readonly lookbackMs: number;
  readonly hysteresisPct: number;
  readonly repeatMs: number;
  readonly staleAfterIntervals: number;
  /** How long curve points are kept: the rollup is used only when points outlive the window. */
  readonly retentionMs?: number;
}

/** Events to send, and the state write to make once they are on the queue. */
export interface PendingAlerts {
  readonly events: NotifyEvent[];
  /** The current drawdown, percent (null without data). */
  readonly drawdownPct: number | null;
  /**
   * The current drawdown with every marked step (a flow that could not be placed) at its
   * favourable placement (`DrawdownResult.favourableCurrentPct`). Measured on the full window
   * only: `null` when the poll stopped at the rollup (no level moved) or without data.
   */
  readonly favourableDrawdownPct: number | null;
  /**
   * The notice's level is reached only through marked steps (`favourableDrawdownPct` is below
   * it): the email still goes out, but an automatic action waits for the next poll.
   */
  readonly crossingOnMarkedStepsOnly: boolean;
  /** The newest stored point's time (null without data). */
  readonly asOf: number | null;
  /**
   * The exact window the drawdown was measured on, with its peak; `null` when the poll stopped at
   * the rollup. Never `null` while an armed kill switch is within reach of its level (see
   * `nearKillSwitch`): the kill switch decides and re-reads on the exact series only.
   */
  readonly measured: { readonly series: readonly SeriesPoint[]; readonly peakAt: number } | null;
  commit(): Promise<void>;
}

/**
 * Evaluates an account's drawdown levels on its stored curves (flow-adjusted, see
 * `domain/drawdown`). The state write is returned rather than made, so the caller queues the
 * notice first: a crash in between re-sends the same notice id, which delivery deduplicates,
 * rather than losing it. The state item is only rewritten when a level moved or was notified.
 *
 * A steady poll reads little: the drawdown is measured from the account's stored rollup
 * (`domain/drawdownRollup`) and the points after it. When that figure would move a level or
 * send a notice (within `ROLLUP_TOLERANCE_PCT`), or there is no usable rollup, the full window
 * is read and evaluated exactly as without a rollup, and the rollup is rebuilt from it; so every
 * decision that changes something is made on the exact series.
 *
 * `writtenFromMs`: the oldest timestamp of the points this poll wrote (a rollup that ends at or
 * after it may no longer match the store). `refetched`: those points re-fetch history already
 * evaluated (a first poll, an interval change), so no level is re-armed from a recovery among them.
 */
export async function evaluateDrawdown(
  deps: { curves: CurvesRepository; alerts: AlertStateRepository },
  account: TrackedAccount,
  now: number,
  settings: DrawdownSettings,
  writtenFromMs: number | null = null,
  refetched = false,
): Promise<PendingAlerts> {
  const windowMs = lookbackWindowMs(account.interval, settings.lookbackMs);
  const from = Math.max(0, now - windowMs);
  const rules = await deps.alerts.listForAccount(account.address);
  const levels = levelContext(rules, account, now, settings);
  const rollupItem = rules.find((r) => r.rule === DRAWDOWN_ROLLUP_RULE);
  const stored = rollupItem ? rollupFromState(rollupItem.state) : null;
  const saveRollup = async (rollup: DrawdownRollup) => {
    const state = rollupToState(rollup);
    // A conflict is a concurrent poll storing its own rollup of the same store.
    if (state) await deps.alerts.compareAndSet(account.address, DRAWDOWN_ROLLUP_RULE, rollupItem?.version ?? null, state);
  };

  /** The stored rollup, once the store was found to continue it. */
  let verified: DrawdownRollup | null = null;
  const usable =
    stored?.last &&
    stored.interval === account.interval &&
    stored.coveredFrom <= from &&
    (writtenFromMs === null || writtenFromMs > stored.last.timestamp) &&
    (settings.retentionMs === undefined || settings.retentionMs > windowMs)
      ? { ...stored, last: stored.last }
      : null;
  if (usable) {
    const measured = await measureWithRollup(deps.curves, account.address, usable, from, now);
    if (measured.kind === 'measured') {
      verified = usable;
      const commitRollup = async () => {
        if (measured.changed) await saveRollup(measured.sealed);
      };
      const quiet = { events: [], favourableDrawdownPct: null, crossingOnMarkedStepsOnly: false, measured: null, commit: commitRollup };
      if (measured.currentPct === null || !measured.last) return { ...quiet, drawdownPct: null, asOf: null };
      const { currentPct, last } = measured;
      // A poll that wrote more than one point (a missed poll, a gap) is evaluated on the exact
      // series, point by point: a level crossed at a point before the newest must not pass unseen.
      const filledGap = writtenFromMs !== null && last.timestamp > writtenFromMs;
      if (!filledGap && !nearKillSwitch(account, currentPct, settings) && levels.quietAround(currentPct, last))
        return { ...quiet, drawdownPct: currentPct, asOf: last.timestamp };
    }
  }

  const points = await deps.curves.queryRange(account.address, account.interval, from, now);
  const series = storedSeries(points);
  const rebuilt = rollupOfSeries(account.interval, from, series);
  const commitRollup = async () => {
    if (rebuilt.last && rebuilt.last.timestamp !== verified?.last?.timestamp) await saveRollup(rebuilt);
  };
  const result = drawdown(series);
  const last = series[series.length - 1];
  const favourableDrawdownPct = result?.favourableCurrentPct ?? null;
  const exact = result ? { series, peakAt: result.peakAt } : null;
  const nothing: PendingAlerts = {
    events: [],
    drawdownPct: result?.currentPct ?? null,
    favourableDrawdownPct,
    crossingOnMarkedStepsOnly: false,
    asOf: last?.timestamp ?? null,
    measured: exact,
    commit: commitRollup,
  };
  if (!result || !last || account.drawdownThresholds.length === 0) return nothing;

  // In order, over the points this poll brought: the shallowest before the deepest (a breached
  // level that recovered there is re-armed), the gap's deepest point (a level crossed during an
  // outage fires once, even if the drawdown has recovered since), then the newest point from the
  // states that left.
  const curve = writtenFromMs === null ? [] : drawdownCurve(series);
  const deepest = writtenFromMs === null ? null : deepestSince(curve, writtenFromMs);
  const deeper = deepest && deepest.timestamp < last.timestamp && deepest.drawdownPct > result.currentPct ? deepest : null;
  const shallowest = writtenFromMs === null || refetched ? null : shallowestBetween(curve, writtenFromMs, (deeper ?? last).timestamp);
  const rearmAt = shallowest && shallowest.drawdownPct < Math.min(result.currentPct, deeper?.drawdownPct ?? Number.POSITIVE_INFINITY) ? shallowest : null;
  const rearm = rearmAt ? levels.evaluate(rearmAt.drawdownPct, last, series) : null;
  const statesAfter = (e: DrawdownEvaluation) => new Map(e.decisions.map((d): [number, LevelState] => [d.level, d.nextState]));
  const during = deeper ? levels.evaluate(deeper.drawdownPct, last, series, rearm ? statesAfter(rearm) : undefined) : null;
  const afterGap = during ? statesAfter(during) : rearm ? statesAfter(rearm) : undefined;
  const evaluation = levels.evaluate(result.currentPct, last, series, afterGap);
  const moved = levels.moved(evaluation);
  const notice = during?.notice ?? evaluation.notice ?? rearm?.notice ?? null;
  // A level crossed again after recovering is dated from its new crossing.
  const crossingFrom = rearmAt && notice !== rearm?.notice ? rearmAt.timestamp : writtenFromMs;
  const reached = notice && crossingFrom !== null ? firstReached(curve, crossingFrom, notice.level) : null;
  // A crossing is dated (the notices then speak of a gap filled since) only at a point before the
  // newest: points were missing when it happened. At the newest point it is this poll's own.
  const crossedAt = reached !== null && reached < last.timestamp ? reached : null;
  const staleLimitMs = settings.staleAfterIntervals * INTERVAL_MS[account.interval];
  const late = crossedAt !== null && now - crossedAt > staleLimitMs ? { lateByMs: now - crossedAt } : {};
  // A level that recovered in the gap and was crossed again stays one open incident: no recovery for it.
  const refired = new Set(notice?.levels ?? []);
  const gapRecoveries = (rearm?.recoveries ?? []).filter((r) => !refired.has(r.level));
  const recoveries: NotifyEvent[] = [...gapRecoveries, ...evaluation.recoveries].map((r) => ({
    kind: 'drawdown-recovered',
    eventId: r.id,
    account: account.address,
    at: now,
    level: r.level,
    drawdownPct: Math.min(100, Math.max(0, r.drawdownPct)),
    equityNow: last.equity,
    asOf: last.timestamp,
  }));
  const alerts: NotifyEvent[] = notice
    ? [
        {
          kind: 'drawdown',
          eventId: notice.id,
          account: account.address,
          at: now,
          notice: notice.kind,
          level: notice.level,
          levels: notice.levels,
          drawdownPct: Math.min(100, Math.max(0, notice.drawdownPct)),
          maxDrawdownPct: Math.min(100, Math.max(0, result.maxPct)),
          dollarDrawdown: result.dollarDrawdown,
          peakAt: result.peakAt,
          peakEquity: result.peakEquity,
          equityNow: last.equity,
          pnlNow: last.pnl,
          asOf: last.timestamp,
          ...(crossedAt === null ? {} : { crossedAt }),
          ...late,
        },
      ]
    : [];
  const events = [...alerts, ...recoveries];
  return {
    events,
    drawdownPct: result.currentPct,
    favourableDrawdownPct,
    crossingOnMarkedStepsOnly: notice !== null && result.favourableCurrentPct < notice.level,
    asOf: last.timestamp,
    measured: exact,
    commit: async () => {
      await Promise.all([
        commitRollup(),
        // A conflict means a concurrent evaluation wrote first; its notice id equals ours when it
        // saw the same state, and delivery sends that id once.
        moved ? deps.alerts.compareAndSet(account.address, DRAWDOWN_RULE, levels.version, { levels: levels.next(evaluation) }) : undefined,
      ]);
    },
  };
}

/**
 * The account's stored level states and snooze, and the alert machine run on them for a given
 * drawdown and newest point.
 */
function levelContext(rules: readonly AlertState[], account: TrackedAccount, now: number, settings: DrawdownSettings) {
  const stateItem = rules.find((r) => r.rule === DRAWDOWN_RULE);
  const parsed = drawdownStateSchema.safeParse(stateItem?.state ?? { levels: {} });
  const priorLevels = parsed.success ? parsed.data.levels : {};
  const states = new Map<number, LevelState>(Object.entries(priorLevels).map(([level, stored]): [number, LevelState] => [Number(level), levelStateOf(stored)]));
  const snooze = snoozeStateSchema.safeParse(rules.find((r) => r.rule === SNOOZE_RULE)?.state);

  /** The machine at `drawdownPct`, from the stored states or from `from` (an earlier evaluation's, in the same poll). */
  const evaluate = (drawdownPct: number, last: SeriesPoint, series?: readonly SeriesPoint[], from?: ReadonlyMap<number, LevelState>): DrawdownEvaluation =>
    evaluateDrawdownAlerts({
      account: account.address,
      drawdownPct,
      levels: account.drawdownThresholds,
      states: from ?? states,
      snoozedUntil: snooze.success ? snooze.data.until : null,
      now,
      dataFresh: isDataFresh(last.timestamp, now, account.interval, settings.staleAfterIntervals),
      hysteresisPct: settings.hysteresisPct,
      repeatMs: settings.repeatMs,
      // First evaluation: what was already breached when tracking began is recorded, not announced.
      ...(stateItem === undefined && series ? { breachedBeforeTracking: breachedAt(series, account.createdAt, account.drawdownThresholds) } : {}),
    });
  const moved = (evaluation: DrawdownEvaluation): boolean =>
    evaluation.decisions.some((d) => {
      const prior = states.get(d.level);
      const next = d.nextState;
      return (
        !prior ||
        prior.status !== next.status ||
        prior.lastSentAt !== next.lastSentAt ||
        prior.breachedAt !== next.breachedAt ||
        Boolean(prior.baseline) !== Boolean(next.baseline) ||
        Boolean(prior.named) !== Boolean(next.named)
      );
    });
  return {
    version: stateItem?.version ?? null,
    evaluate,
    moved,
    next: (evaluation: DrawdownEvaluation) => Object.fromEntries(evaluation.decisions.map((d) => [String(d.level), d.nextState])),
    /**
     * Whether a drawdown anywhere within `ROLLUP_TOLERANCE_PCT` of `drawdownPct` would leave every
     * level's stored state as it is and send nothing (the machine is monotone in the drawdown, so
     * both ends and the middle decide it). Never true on a first evaluation (every level is new).
     */
    quietAround: (drawdownPct: number, last: SeriesPoint): boolean =>
      [drawdownPct - ROLLUP_TOLERANCE_PCT, drawdownPct, drawdownPct + ROLLUP_TOLERANCE_PCT].every((value) => {
        const evaluation = evaluate(value, last);
        return evaluation.notice === null && !moved(evaluation);
      }),
  };
}

/**
 * Whether an armed kill switch is within reach of its level or of its re-arm margin (the rollup's
 * tolerance included): then the poll measures on the exact series, which the kill switch needs.
 */
function nearKillSwitch(account: Pick<TrackedAccount, 'killSwitch'>, drawdownPct: number, settings: Pick<DrawdownSettings, 'hysteresisPct'>): boolean {
  return account.killSwitch !== null && drawdownPct + ROLLUP_TOLERANCE_PCT >= account.killSwitch - settings.hysteresisPct;
}

/** The levels the drawdown had reached at `at` (tracking start), measured on the points up to then. */
function breachedAt(series: readonly SeriesPoint[], at: number, levels: readonly number[]): number[] {
  const before = drawdown(series.filter((p) => p.timestamp <= at));
  return before ? levels.filter((level) => before.currentPct >= level) : [];
}
