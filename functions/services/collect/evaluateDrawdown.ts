import * as z from 'zod';
import { drawdown } from '../../domain/drawdown';
import { alignCurves } from '../../domain/series';
import { evaluateDrawdownAlerts, type LevelState } from '../../domain/alertMachine';
import { isDataFresh } from '../../domain/staleness';
import type { AccountRecord } from '../../store/accountItem';
import type { AlertStateRepository } from '../../store/alertStateRepository';
import { SNOOZE_RULE } from '../../store/alertStateRepository';
import type { CurvesRepository } from '../../store/curvesRepository';
import type { NotifyEvent } from '../../messages/notifyMessage';
import { lookbackWindowMs } from '../../domain/lookbackWindow';

/** The alert-state rule under which every drawdown level of an account is kept, in one item. */
export const DRAWDOWN_RULE = 'drawdown';

const levelStateSchema = z.object({
  status: z.enum(['armed', 'breached']),
  lastValue: z.number().nullable(),
  lastSentAt: z.number().nullable(),
  breachedAt: z.number().nullable(),
  baseline: z.boolean().optional(),
});
const drawdownStateSchema = z.object({ levels: z.record(z.string(), levelStateSchema) });

export interface DrawdownSettings {
  /** How far back the running peak is looked for. */
  readonly lookbackMs: number;
  readonly hysteresisPct: number;
  readonly repeatMs: number;
  readonly staleAfterIntervals: number;
}

/** Events to send, and the state write to make once they are on the queue. */
export interface PendingAlerts {
  readonly events: NotifyEvent[];
  /** The current drawdown, percent (null without data). */
  readonly drawdownPct: number | null;
  commit(): Promise<void>;
}

/**
 * Evaluates an account's drawdown levels on its stored curves (flow-adjusted, see
 * `domain/drawdown`). The state write is returned rather than made, so the caller queues the
 * notice first: a crash in between re-sends the same notice id, which delivery deduplicates,
 * rather than losing it. The state item is only rewritten when a level moved or was notified.
 */
export async function evaluateDrawdown(
  deps: { curves: CurvesRepository; alerts: AlertStateRepository },
  account: AccountRecord,
  now: number,
  settings: DrawdownSettings,
): Promise<PendingAlerts> {
  const [stored, rules] = await Promise.all([
    deps.curves.queryRange(account.address, account.interval, Math.max(0, now - lookbackWindowMs(account.interval, settings.lookbackMs)), now),
    deps.alerts.listForAccount(account.address),
  ]);
  const series = alignCurves(
    stored.flatMap((p) => (p.equity === undefined ? [] : [{ timestamp: p.ts, value: p.equity }])),
    stored.flatMap((p) => (p.pnl === undefined ? [] : [{ timestamp: p.ts, value: p.pnl }])),
  );
  const result = drawdown(series);
  const last = series[series.length - 1];
  const nothing: PendingAlerts = { events: [], drawdownPct: result?.currentPct ?? null, commit: async () => undefined };
  if (!result || !last || account.drawdownThresholds.length === 0) return nothing;

  const stateItem = rules.find((r) => r.rule === DRAWDOWN_RULE);
  const parsed = drawdownStateSchema.safeParse(stateItem?.state ?? { levels: {} });
  const priorLevels = parsed.success ? parsed.data.levels : {};
  const states = new Map<number, LevelState>(
    Object.entries(priorLevels).map(([level, { baseline, ...s }]): [number, LevelState] => [Number(level), baseline ? { ...s, baseline } : s]),
  );
  const snooze = z.object({ until: z.number() }).safeParse(rules.find((r) => r.rule === SNOOZE_RULE)?.state);

  const evaluation = evaluateDrawdownAlerts({
    account: account.address,
    drawdownPct: result.currentPct,
    levels: account.drawdownThresholds,
    states,
    snoozedUntil: snooze.success ? snooze.data.until : null,
    now,
    dataFresh: isDataFresh(last.timestamp, now, account.interval, settings.staleAfterIntervals),
    hysteresisPct: settings.hysteresisPct,
    repeatMs: settings.repeatMs,
    // First evaluation: what was already breached when tracking began is recorded, not announced.
    ...(stateItem === undefined ? { breachedBeforeTracking: breachedAt(series, account.createdAt, account.drawdownThresholds) } : {}),
  });

  const nextLevels = Object.fromEntries(evaluation.decisions.map((d) => [String(d.level), d.nextState]));
  const moved = evaluation.decisions.some((d) => {
    const prior = states.get(d.level);
    const next = d.nextState;
    return (
      !prior ||
      prior.status !== next.status ||
      prior.lastSentAt !== next.lastSentAt ||
      prior.breachedAt !== next.breachedAt ||
      Boolean(prior.baseline) !== Boolean(next.baseline)
    );
  });
  const notice = evaluation.notice;
  const events: NotifyEvent[] = notice
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
        },
      ]
    : [];
  return {
    events,
    drawdownPct: result.currentPct,
    commit: async () => {
      if (!moved) return;
      // A conflict means a concurrent evaluation wrote first; its notice id equals ours when it
      // saw the same state, and delivery sends that id once.
      await deps.alerts.compareAndSet(account.address, DRAWDOWN_RULE, stateItem?.version ?? null, { levels: nextLevels });
    },
  };
}

/** The levels the drawdown had reached at `at` (tracking start), measured on the points up to then. */
function breachedAt(series: ReturnType<typeof alignCurves>, at: number, levels: readonly number[]): number[] {
  const before = drawdown(series.filter((p) => p.timestamp <= at));
  return before ? levels.filter((level) => before.currentPct >= level) : [];
}
