import type { TrackedAccount } from '../../domain/account';
import type { DayFigures } from '../../domain/dayFigures';
import { drawdown } from '../../domain/drawdown';
import { emptyRollup, foldPoints, usableRollup } from '../../domain/drawdownRollup';
import { DRAWDOWN_RULE, drawdownStateSchema } from '../../domain/drawdownState';
import { killSwitchStateSchema, type KillSwitchState } from '../../domain/killSwitchDecision';
import type { KillSwitchProgress } from '../../domain/killSwitchProgress';
import { localDate, localDayBounds } from '../../domain/localTime';
import { lookbackWindowMs } from '../../domain/lookbackWindow';
import { protectionArming, type Arming } from '../../domain/protectionArming';
import { buildReportModel } from '../../domain/reportModel';
import type { RevokeUnknownMode } from '../../domain/revokeUnknownMode';
import type { LatestUnknownKeyDecision, RecentUnknownKeyDecision } from '../../domain/recentUnknownKeyDecision';
import { shownStatus, type ShownStatus } from '../../domain/shownStatus';
import { withoutUrls } from '../../shared/withoutUrls';
import type { CurvesRepository } from '../../store/curvesRepository';
import type { DelegateView } from '../../store/delegateViewRepository';
import { DRAWDOWN_ROLLUP_RULE, rollupFromState } from '../../store/drawdownRollupItem';
import { KILL_SWITCH_RULE } from '../../store/killSwitchStateItem';
import { latestUnknownKeyDecisionIn } from '../../store/unknownKeyDecisionItem';
import type { StoredCurvePoint } from '../../store/storedCurvePoint';
import { storedSeries } from '../../store/storedSeries';
import { DEFAULT_COLLECT_SETTINGS } from '../collect/collectSettings';
import { measureWithRollup } from '../collect/measureWithRollup';
import { storedReportInput } from '../../domain/composeReport';
import type { DeskStores } from './deskStores';

/** One account's line of the overview, every figure from stored data. */
export interface OverviewRow {
  readonly account: Pick<TrackedAccount, 'address' | 'label' | 'timezone' | 'interval'>;
  readonly status: ShownStatus;
  readonly statusReason: string | null;
  /** The latest poll that stored something (its snapshot), or `null` before one. */
  readonly lastPollAt: number | null;
  /** That snapshot's `polledAt` (the poll's due time), what staleness is measured from. */
  readonly polledAt: number | null;
  /** The newest stored point: what every figure is as of. */
  readonly asOf: number | null;
  readonly equity: number | null;
  /** The local day in progress in the account's zone, measured as the daily report measures a day. */
  readonly today: { readonly localDate: string; readonly figures: DayFigures | null };
  /** Flow-adjusted drawdown now over the drawdown window (the alerts' figure). */
  readonly drawdownPct: number | null;
  readonly levels: readonly number[];
  /** Levels the stored alert state holds as breached. */
  readonly breachedLevels: readonly number[];
  /** `progress`: what became of the keys of a queued firing (`revoking`), when read; `null` otherwise. */
  readonly killSwitch: {
    readonly levelPct: number | null;
    readonly arming: Arming;
    readonly state: KillSwitchState | null;
    readonly progress: KillSwitchProgress | null;
  };
  readonly revokeUnknown: RevokeUnknownMode;
  /**
   * The account's latest unknown-key decision (`latest`: its id and time, from the alert states or
   * the summary; `null`: none) and, once read, where it stands while the overview shows it
   * (`recent`; `null`: not read, or no longer shown).
   */
  readonly unknownKey: { readonly latest: LatestUnknownKeyDecision | null; readonly recent: RecentUnknownKeyDecision | null };
  /** The listed delegate that expires first, and how many are listed. */
  readonly soonestExpiry: { readonly address: string; readonly name: string | null; readonly expiryMs: number } | null;
  readonly delegates: number;
  /** The flow-adjusted performance index (log, rounded to 1e-6) at the end of each rollup unit of the drawdown window, the newest unit (still open) ending at the newest point. */
  readonly spark: readonly number[];
}

/** The curves port `measureWithRollup` reads through: ranges inside the points already read are served from them. */
function prefetched(
  points: readonly StoredCurvePoint[],
  fetchedFrom: number,
  curves: Pick<CurvesRepository, 'queryRange'>,
): Pick<CurvesRepository, 'queryRange'> {
  return {
    queryRange: async (address, interval, from, to) =>
      from >= fetchedFrom ? points.filter((p) => p.ts >= from && p.ts <= to) : curves.queryRange(address, interval, from, to),
  };
}

/**
 * A sparkline's value: the index rounded to 1e-6 (0.0001 % of performance; the line is 22 px
 * high), which keeps a 1m account's summary under 1 KB, one write unit a poll instead of two.
 */
function sparkValue(g: number): number {
  return Math.round(g * 1e6) / 1e6;
}

function soonest(views: readonly DelegateView[]): OverviewRow['soonestExpiry'] {
  const listed = views.filter((v) => v.removedAt === null && v.expiryMs !== null);
  const first = listed.sort((a, b) => (a.expiryMs ?? 0) - (b.expiryMs ?? 0))[0];
  return first && first.expiryMs !== null ? { address: first.delegate, name: first.name, expiryMs: first.expiryMs } : null;
}

/**
 * One account's overview line at `now`, read without its whole curve: its alert states (the
 * drawdown rollup among them), latest snapshot and delegates, and the points since the earlier of
 * its local midnight and the rollup's last point (a day or two). The drawdown is collect's rollup
 * measure (the full window is read only without a usable rollup); today's figures are the daily
 * report's, built from stored data by the report's own composition.
 */
export async function overviewRow(
  stores: Pick<DeskStores, 'curves' | 'snapshots' | 'alerts' | 'delegates'>,
  account: TrackedAccount,
  now: number,
): Promise<OverviewRow> {
  const [rules, snapshot, views] = await Promise.all([
    stores.alerts.listWithControls(account.address),
    stores.snapshots.latest(account.address),
    stores.delegates.listForAccount(account.address),
  ]);
  const from = Math.max(0, now - lookbackWindowMs(account.interval, DEFAULT_COLLECT_SETTINGS.lookbackMs));
  const today = localDate(now, account.timezone);
  const day = localDayBounds(today, account.timezone);
  const rollupItem = rules.find((r) => r.rule === DRAWDOWN_ROLLUP_RULE);
  const rollup = usableRollup(rollupItem ? rollupFromState(rollupItem.state) : null, { interval: account.interval, from });
  const fetchFrom = rollup ? Math.min(day.startMs, rollup.last.timestamp) : from;
  const raw = await stores.curves.queryRange(account.address, account.interval, fetchFrom, now);
  const points = storedSeries(raw);

  let drawdownPct: number | null = null;
  let spark: number[] = [];
  const measured = rollup ? await measureWithRollup(prefetched(raw, fetchFrom, stores.curves), account.address, rollup, from, now) : null;
  if (rollup && measured?.kind === 'measured') {
    drawdownPct = measured.currentPct;
    spark = measured.current.units.map((u) => sparkValue(u.end));
  } else {
    // No usable rollup (a new account, an interval change): the full window, as collect would measure it.
    const series = rollup ? storedSeries(await stores.curves.queryRange(account.address, account.interval, from, now)) : points;
    drawdownPct = drawdown(series)?.currentPct ?? null;
    spark = foldPoints(
      emptyRollup(account.interval, from),
      series.filter((p) => p.timestamp >= from),
    ).units.map((u) => sparkValue(u.end));
  }

  const newest = points.at(-1) ?? (rollup ? rollup.last : null);
  const latest = newest ? null : await stores.curves.latest(account.address, account.interval);
  const model = buildReportModel(
    storedReportInput(account, { localDate: today, startMs: day.startMs, endMs: day.endMs, previousReportAt: day.startMs }, points, {
      delegates: [],
      previous: null,
      now,
      chainFailedAt: now,
    }),
  );
  const levelStates = drawdownStateSchema.safeParse(rules.find((r) => r.rule === DRAWDOWN_RULE)?.state);
  const killSwitchState = killSwitchStateSchema.safeParse(rules.find((r) => r.rule === KILL_SWITCH_RULE)?.state);
  const shown = shownStatus(account, now, withoutUrls, snapshot ? snapshot.polledAt : null);
  return {
    account: { address: account.address, label: account.label, timezone: account.timezone, interval: account.interval },
    status: shown.status,
    statusReason: shown.reason,
    lastPollAt: snapshot ? (snapshot.fetchedAt ?? snapshot.polledAt) : null,
    polledAt: snapshot ? snapshot.polledAt : null,
    asOf: newest?.timestamp ?? latest?.ts ?? null,
    equity: newest?.equity ?? (latest?.equity === undefined ? null : Number(latest.equity)),
    today: { localDate: today, figures: model.day },
    drawdownPct,
    levels: account.drawdownThresholds,
    breachedLevels: levelStates.success
      ? Object.entries(levelStates.data.levels)
          .filter(([, s]) => s.status === 'breached')
          .map(([level]) => Number(level))
          .sort((a, b) => a - b)
      : [],
    killSwitch: {
      levelPct: account.killSwitch,
      arming: protectionArming(account, 'kill-switch'),
      state: killSwitchState.success ? killSwitchState.data : null,
      progress: null,
    },
    revokeUnknown: account.revokeUnknown,
    unknownKey: { latest: latestUnknownKeyDecisionIn(rules), recent: null },
    soonestExpiry: soonest(views),
    delegates: views.filter((v) => v.removedAt === null).length,
    spark,
  };
}
