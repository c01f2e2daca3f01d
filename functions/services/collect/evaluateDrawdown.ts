import type { LevelState } from '../../domain/alertMachine';
import { decideDrawdown, quietAtRollup, type DrawdownDecision } from '../../domain/decideDrawdown';
import type { DrawdownLevelsInput, StoredDrawdownLevels } from '../../domain/drawdownLevels';
import type { TrackedAccount } from '../../domain/account';
import type { AlertState, AlertStateRepository } from '../../store/alertStateRepository';
import { SNOOZE_RULE } from '../../store/alertStateRepository';
import type { CurvesRepository } from '../../store/curvesRepository';
import type { NotifyEvent } from '../../messages/notifyMessage';
import { lookbackWindowMs } from '../../domain/lookbackWindow';
import { rollupOfSeries, usableRollup, type DrawdownRollup } from '../../domain/drawdownRollup';
import type { SeriesPoint } from '../../domain/series';
import { DRAWDOWN_ROLLUP_RULE, rollupFromState, rollupToState } from '../../store/drawdownRollupItem';
import { measureWithRollup } from './measureWithRollup';
import { storedSeries } from '../../store/storedSeries';
import { DRAWDOWN_RULE, drawdownStateSchema, levelStateOf, snoozeStateSchema } from '../../domain/drawdownState';
import { levelHistory } from '../../domain/levelHistory';
import type { AlertHistoryEntry } from '../../domain/alertHistoryEntry';
import type { AccountHistoryRepository } from '../../store/accountHistoryRepository';

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
 * `rules`: the account's alert states (levels, rollup, snooze) as the caller loaded them
 * (`listForAccount`, beside its other reads).
 */
export async function evaluateDrawdown(
  deps: DrawdownDeps,
  account: TrackedAccount,
  now: number,
  settings: DrawdownSettings,
  rules: readonly AlertState[],
  writtenFromMs: number | null = null,
  refetched = false,
): Promise<PendingAlerts> {
  const windowMs = lookbackWindowMs(account.interval, settings.lookbackMs);
  const from = Math.max(0, now - windowMs);
  const levels: DrawdownLevelsInput = { account, stored: storedLevels(rules), rules: settings, now };
  const rollupItem = rules.find((r) => r.rule === DRAWDOWN_ROLLUP_RULE);
  const versions = { rollup: rollupItem?.version ?? null, levels: rules.find((r) => r.rule === DRAWDOWN_RULE)?.version ?? null };
  const usable = usableRollup(rollupItem ? rollupFromState(rollupItem.state) : null, {
    interval: account.interval,
    from,
    writtenFromMs,
    pointsOutliveWindow: settings.retentionMs === undefined || settings.retentionMs > windowMs,
  });

  // Load: the rollup and the points after it; the full window only when the store does not continue
  // the rollup, or its figure may move a level (a figure without data moves none).
  const measured = usable ? await measureWithRollup(deps.curves, account.address, usable, from, now) : null;
  const atRollup = measured?.kind === 'measured' ? measured : null;
  const quietAt =
    atRollup !== null &&
    (atRollup.currentPct === null || !atRollup.last || quietAtRollup(levels, { currentPct: atRollup.currentPct, last: atRollup.last, writtenFromMs }))
      ? atRollup
      : null;

  // Decide (the full window read first when the rollup does not suffice): the figures, the notices and the writes.
  let outcome: Omit<PendingAlerts, 'commit'>;
  let write: DrawdownWrite;
  if (quietAt !== null) {
    const last = quietAt.currentPct === null ? null : quietAt.last;
    outcome = { ...NO_NOTICE, events: [], drawdownPct: last ? quietAt.currentPct : null, asOf: last?.timestamp ?? null };
    write = { rollup: quietAt.changed ? quietAt.sealed : null, levels: null, history: [] };
  } else {
    const window = await deps.curves.queryRange(account.address, account.interval, from, now);
    const series = storedSeries(window);
    const rebuilt = rollupOfSeries(account.interval, from, series);
    // The stored rollup, when the store was found to continue it, is not written again.
    const rollup = rebuilt.last && (atRollup === null || rebuilt.last.timestamp !== usable?.last.timestamp) ? rebuilt : null;
    const decision = decideDrawdown(levels, { series, writtenFromMs, refetched });
    if (decision.kind === 'no-data') {
      outcome = { ...NO_NOTICE, events: [], drawdownPct: null, asOf: null };
      write = { rollup, levels: null, history: [] };
    } else {
      const { result, last, nextLevels } = decision;
      outcome = {
        events: drawdownEvents(account, now, decision),
        drawdownPct: result.currentPct,
        favourableDrawdownPct: result.favourableCurrentPct,
        crossingOnMarkedStepsOnly: decision.crossingOnMarkedStepsOnly,
        asOf: last.timestamp,
        measured: { series, peakAt: result.peakAt },
      };
      write = { rollup, levels: nextLevels, history: levelHistory(levels.stored.states, decision, now) };
    }
  }
  // Deliver, once the notices are queued: each write against the version it was loaded at.
  return {
    ...outcome,
    commit: async () => {
      const rollupState = write.rollup ? rollupToState(write.rollup) : null;
      const [, written] = await Promise.all([
        // A conflict is a concurrent poll storing its own rollup of the same store.
        rollupState ? deps.alerts.compareAndSet(account.address, DRAWDOWN_ROLLUP_RULE, versions.rollup, rollupState) : undefined,
        // A conflict means a concurrent evaluation wrote first; its notice id equals ours when it
        // saw the same state, and delivery sends that id once.
        write.levels ? deps.alerts.compareAndSet(account.address, DRAWDOWN_RULE, versions.levels, { levels: write.levels }) : undefined,
      ]);
      // The levels that moved, into the account's alert history, once their state is the stored one.
      if (written?.kind === 'written') await deps.history.recordAlerts(account.address, write.history);
    },
  };
}

/** The stores an evaluation reads and writes. */
type DrawdownDeps = {
  curves: CurvesRepository;
  alerts: Pick<AlertStateRepository, 'compareAndSet'>;
  history: Pick<AccountHistoryRepository, 'recordAlerts'>;
};

const NO_NOTICE = { favourableDrawdownPct: null, crossingOnMarkedStepsOnly: false, measured: null } as const;

/** What an evaluation stores: the rollup when it moved on, and the levels (with their history) when one moved or was notified. */
interface DrawdownWrite {
  readonly rollup: DrawdownRollup | null;
  readonly levels: Readonly<Record<string, LevelState>> | null;
  readonly history: readonly AlertHistoryEntry[];
}

/** The account's stored drawdown levels and snooze, read from its alert-state items (an unreadable item counts as none). */
function storedLevels(rules: readonly AlertState[]): StoredDrawdownLevels {
  const stateItem = rules.find((r) => r.rule === DRAWDOWN_RULE);
  const parsed = drawdownStateSchema.safeParse(stateItem?.state ?? { levels: {} });
  const priorLevels = parsed.success ? parsed.data.levels : {};
  const snooze = snoozeStateSchema.safeParse(rules.find((r) => r.rule === SNOOZE_RULE)?.state);
  return {
    states: new Map<number, LevelState>(Object.entries(priorLevels).map(([level, stored]): [number, LevelState] => [Number(level), levelStateOf(stored)])),
    tracked: stateItem !== undefined,
    snoozedUntil: snooze.success ? snooze.data.until : null,
  };
}

/** The notify events of a decision: its notice, then its recoveries. */
function drawdownEvents(account: TrackedAccount, now: number, decision: Extract<DrawdownDecision, { kind: 'measured' }>): NotifyEvent[] {
  const { result, last, notice } = decision;
  const pct = (value: number) => Math.min(100, Math.max(0, value));
  const recoveries: NotifyEvent[] = decision.recoveries.map((r) => ({
    kind: 'drawdown-recovered',
    eventId: r.id,
    account: account.address,
    at: now,
    level: r.level,
    drawdownPct: pct(r.drawdownPct),
    equityNow: last.equity,
    asOf: last.timestamp,
  }));
  if (!notice) return recoveries;
  const alert: NotifyEvent = {
    kind: 'drawdown',
    eventId: notice.id,
    account: account.address,
    at: now,
    notice: notice.kind,
    level: notice.level,
    levels: notice.levels,
    drawdownPct: pct(notice.drawdownPct),
    maxDrawdownPct: pct(result.maxPct),
    dollarDrawdown: result.dollarDrawdown,
    peakAt: result.peakAt,
    peakEquity: result.peakEquity,
    equityNow: last.equity,
    pnlNow: last.pnl,
    asOf: last.timestamp,
    ...(notice.crossedAt === null ? {} : { crossedAt: notice.crossedAt }),
    ...(notice.lateByMs === null ? {} : { lateByMs: notice.lateByMs }),
  };
  return [alert, ...recoveries];
}
